// args: -u 2 -i 6
// Every request refused, judged by thresholds on the failure rate, the latency and a check.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18489";

export const options = {
  thresholds: {
    http_req_failed: ["rate<0.01"],
    http_req_duration: ["p(95)<2000"],
    "http_reqs{status:0}": ["count==6"],
    checks: ["rate==0"],
  },
};

export default function () {
  const res = http.get(`${BASE}/json`);
  check(res, { "answered": (r) => r.status !== 0 });
}
