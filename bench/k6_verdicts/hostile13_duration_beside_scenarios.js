// args: --duration 1s -u 2
// counts: by duration
// --duration and --vus beside scenarios in the script: k6 runs the flags' load, the scenarios dropped.
import http from "k6/http";

export const options = {
  scenarios: {
    api: { executor: "per-vu-iterations", vus: 1, iterations: 1, exec: "api" },
  },
  thresholds: { "http_reqs{scenario:api}": ["count==0"], "http_reqs{scenario:default}": ["count>2"] },
};

export function api() {
  http.get("http://127.0.0.1:18482/get");
}

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
