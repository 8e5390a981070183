// args: -i 5
// Thresholds by status: one that holds, and an error rate that does not (half the answers are 400).
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_reqs{status:400}": ["count==5"],
    "http_req_duration{status:200}": ["p(99)<2000"],
    http_req_failed: ["rate<0.1"],
  },
};

export default function () {
  check(http.get(`${BASE}/json`), { "json is 200": (r) => r.status === 200 });
  check(http.get(`${BASE}/validate`), { "validate is 400": (r) => r.status === 400 });
}
