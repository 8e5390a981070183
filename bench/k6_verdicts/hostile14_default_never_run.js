// args:
// A default function beside scenarios that all name other functions: the default never runs.
import http from "k6/http";
import { Counter } from "k6/metrics";

const defaults = new Counter("default_runs");

export const options = {
  scenarios: {
    api: { executor: "per-vu-iterations", vus: 2, iterations: 2, exec: "api" },
  },
  thresholds: { default_runs: ["count==0"], "http_reqs{scenario:api}": ["count==4"] },
};

export default function () {
  defaults.add(1);
}

export function api() {
  http.get("http://127.0.0.1:18482/json");
}
