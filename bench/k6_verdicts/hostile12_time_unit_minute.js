// args:
// counts: by duration
// A constant arrival rate written per minute, as capacity plans state it: 240/min for 3 s.
import http from "k6/http";

export const options = {
  scenarios: {
    steady: {
      executor: "constant-arrival-rate",
      rate: 240,
      timeUnit: "1m",
      duration: "3s",
      preAllocatedVUs: 2,
    },
  },
  thresholds: {
    "iterations{scenario:steady}": ["count>=8", "count<=14"],
    dropped_iterations: ["count<=2"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
