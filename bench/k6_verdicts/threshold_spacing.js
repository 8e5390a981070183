// args:
// Threshold expressions as people type them: spaces around operators, a leading space, <= and >=.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = {
  iterations: 4,
  thresholds: {
    http_req_duration: ["p(95) < 3000", " avg<= 2000", "max >= 0"],
    http_req_failed: ["rate <= 0.01"],
    http_reqs: ["count >= 4"],
    checks: ["rate > 0.99"],
  },
};

export default function () {
  check(http.get(`${BASE}/get`), { ok: (r) => r.status === 200 });
}
