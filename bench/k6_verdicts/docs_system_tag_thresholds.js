// args: -u 2 -i 4
// Thresholds on k6's system tags: status, method, proto, expected_response, url, name, scenario, group,
// check and error_code, as teams write them.
import http from "k6/http";
import { check, group } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_reqs{status:200}": ["count==8"],
    "http_reqs{status:404}": ["count==4"],
    "http_reqs{method:POST}": ["count==4"],
    "http_reqs{proto:HTTP/1.1}": ["count==16"],
    "http_reqs{scenario:default}": ["count==16"],
    "http_reqs{error_code:1404}": ["count==4"],
    "http_req_failed{status:404}": ["rate==1"],
    "checks{check:status is 200}": ["rate==1"],
    [`http_reqs{url:${BASE}/get}`]: ["count==4"],
    "http_req_waiting{group:::g}": ["max>=0"],
    "data_received": ["count>1000"],
    "data_sent": ["count>500"],
    "vus_max": ["value==2"],
  },
};

export default function () {
  check(http.get(`${BASE}/get`), { "status is 200": (r) => r.status === 200 });
  http.get(`${BASE}/status/404`);
  group("g", () => http.post(`${BASE}/post`, "x"));
  http.get(`${BASE}/status/201`);
}
