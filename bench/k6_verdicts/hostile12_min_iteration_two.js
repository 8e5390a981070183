// args:
// A test-wide minIterationDuration pacing two scenarios, judged by each one's iteration_duration.
import http from "k6/http";

export const options = {
  minIterationDuration: "400ms",
  scenarios: {
    browse: { executor: "per-vu-iterations", vus: 1, iterations: 3 },
    buy: { executor: "shared-iterations", vus: 2, iterations: 4, exec: "buy" },
  },
  thresholds: {
    "iteration_duration{scenario:browse}": ["min>=390"],
    "iteration_duration{scenario:buy}": ["min>=390", "max<5000"],
    "iterations{scenario:buy}": ["count==4"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function buy() {
  http.post("http://127.0.0.1:18481/post", "sku=1");
}
