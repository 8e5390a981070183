// args: -u 2 -i 4
// A request with its own timeout shorter than the server's answer: k6's status 0 and error_code 1050.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    http_req_failed: ["rate>0.4", "rate<0.6"],
    "http_reqs{name:slow}": ["count==4"],
    "http_reqs{status:0}": ["count==4"],
    "checks{check:timed out}": ["rate==1"],
  },
};

export default function () {
  http.get(`${BASE}/json`);
  const res = http.get(`${BASE}/user?delayMs=800`, { timeout: "200ms", tags: { name: "slow" } });
  check(res, { "timed out": (r) => r.status === 0 && r.error_code === 1050 });
}
