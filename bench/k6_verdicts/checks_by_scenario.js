// args:
// Two scenarios with checks judged per scenario: the API's must all pass, the legacy one's may fail.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = {
  scenarios: {
    api: { executor: "per-vu-iterations", vus: 2, iterations: 3, exec: "api" },
    legacy: { executor: "shared-iterations", vus: 1, iterations: 4, exec: "legacy", startTime: "200ms" },
  },
  thresholds: {
    "checks{scenario:api}": ["rate==1"],
    "checks{scenario:legacy}": ["rate<0.5"],
    "http_req_duration{scenario:api}": ["p(95)<3000"],
    "iterations{scenario:legacy}": ["count==4"],
  },
};

export function api() {
  check(http.get(`${BASE}/get`), { "api 200": (r) => r.status === 200 });
}

export function legacy() {
  check(http.get(`${BASE}/status/410`), { "legacy 200": (r) => r.status === 200 });
}
