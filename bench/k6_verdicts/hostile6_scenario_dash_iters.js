// Two scenarios, one of them per-vu-iterations with its own exec, and thresholds on iteration_duration
// and iterations of each scenario; a scenario name with a dash, as teams name them.
import http from "k6/http";
import { check, sleep } from "k6";

export const options = {
  scenarios: {
    "browse-api": { executor: "shared-iterations", vus: 2, iterations: 6, exec: "browse" },
    checkout: { executor: "per-vu-iterations", vus: 1, iterations: 2, exec: "buy", startTime: "200ms" },
  },
  thresholds: {
    "iterations{scenario:browse-api}": ["count==6"],
    "iterations{scenario:checkout}": ["count==2"],
    "iteration_duration{scenario:checkout}": ["min>=100"],
    "http_reqs{scenario:checkout}": ["count==2"],
  },
};

export function browse() {
  check(http.get("http://127.0.0.1:18481/get"), { "browse ok": (r) => r.status === 200 });
}

export function buy() {
  http.post("http://127.0.0.1:18482/post", "buy");
  sleep(0.1);
}
