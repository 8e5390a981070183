// args:
// fail() in setup when the service is not ready: the test ends before any iteration.
import http from "k6/http";
import { fail } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  iterations: 3,
  thresholds: { http_reqs: ["count>=1"] },
};

export function setup() {
  const res = http.get(`${BASE}/health-not-here`);
  if (res.status !== 200) fail(`service not ready: ${res.status}`);
  return { ok: true };
}

export default function () {
  http.get(`${BASE}/json`);
}
