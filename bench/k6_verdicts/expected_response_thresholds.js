// args: -u 2 -i 12
// Thresholds on expected_response and status tags, with 404s mixed into the traffic.
import http from "k6/http";
import { check } from "k6";
import exec from "k6/execution";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_req_duration{expected_response:true}": ["p(95)<3000"],
    "http_reqs{status:404}": ["count==4"],
    "http_reqs{status:200}": ["count==8"],
    "http_req_failed": ["rate<0.5"],
    "http_req_failed{status:404}": ["rate==1"],
  },
};

export default function () {
  const url = exec.scenario.iterationInTest % 3 === 2 ? `${BASE}/nope` : `${BASE}/json`;
  const res = http.get(url);
  check(res, { "status known": (r) => [200, 404].includes(r.status) });
}
