// args:
// Two scenarios with thresholds by scenario tag, on a built-in metric and on checks.
import http from "k6/http";
import { check, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    browse: { executor: "constant-vus", vus: 2, duration: "3s", exec: "browse" },
    api: { executor: "per-vu-iterations", vus: 1, iterations: 8, exec: "api" },
  },
  thresholds: {
    "http_req_duration{scenario:api}": ["p(95)<2000"],
    "checks{scenario:browse}": ["rate>0.99"],
    "http_reqs{scenario:api}": ["count==8"],
  },
};

export function browse() {
  const res = http.get(`${BASE}/`);
  check(res, { "home is 200": (r) => r.status === 200 });
  sleep(0.1);
}

export function api() {
  const res = http.get(`${BASE}/json`);
  check(res, { "json is 200": (r) => r.status === 200 });
}
