// A constant arrival rate too high for its one preallocated VU (slow answers, no maxVUs above it): k6
// drops the iterations it cannot start and the team's threshold on dropped_iterations fails.
import http from "k6/http";

export const options = {
  scenarios: {
    arrive: {
      executor: "constant-arrival-rate",
      rate: 10,
      timeUnit: "1s",
      duration: "2s",
      preAllocatedVUs: 1,
      maxVUs: 1,
    },
  },
  thresholds: { dropped_iterations: ["count<1"], "iterations{scenario:arrive}": ["count>0"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/delay/0.5");
}
