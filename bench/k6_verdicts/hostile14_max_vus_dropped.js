// args:
// An arrival rate its one VU cannot keep up with: maxVUs reached, the rest dropped_iterations.
import http from "k6/http";

export const options = {
  scenarios: {
    flood: {
      executor: "constant-arrival-rate",
      rate: 20,
      timeUnit: "1s",
      duration: "2s",
      preAllocatedVUs: 1,
      maxVUs: 1,
    },
  },
  thresholds: { dropped_iterations: ["count>10"], vus_max: ["value==1"], iterations: ["count<10"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/delay/0.5");
}
