// args:
// A request's own timeout on a slow endpoint: k6 counts it failed (error_code 1050) and goes on.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = {
  iterations: 2,
  thresholds: {
    "http_req_failed{name:slow}": ["rate==1"],
    "http_req_failed{name:fast}": ["rate==0"],
    "http_reqs{error_code:1050}": ["count==2"],
  },
};

export default function () {
  const slow = http.get(`${BASE}/delay/2`, { timeout: "300ms", tags: { name: "slow" } });
  check(slow, { "timed out": (r) => r.status === 0 && r.error_code === 1050 });
  check(http.get(`${BASE}/get`, { tags: { name: "fast" } }), { "fast ok": (r) => r.status === 200 });
}
