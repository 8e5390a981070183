// args:
// constant-arrival-rate with preAllocatedVUs too low and no maxVUs: the rest dropped, never queued.
import http from "k6/http";

export const options = {
  scenarios: {
    rate: { executor: "constant-arrival-rate", rate: 10, timeUnit: "1s", duration: "2s", preAllocatedVUs: 1 },
  },
  thresholds: {
    dropped_iterations: ["count>=10"],
    "dropped_iterations{scenario:rate}": ["count>=10"],
    iterations: ["count<=8"],
    vus_max: ["value==1"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/delay/0.4");
}
