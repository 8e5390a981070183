// args: -u 1 -i 3
// setResponseCallback with ranges and single codes: 404 and 418 are expected, 500 is not.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 404, { min: 418, max: 418 }));

export const options = {
  thresholds: {
    http_req_failed: ["rate<0.3"],
    "http_req_failed{expected_response:true}": ["rate==0"],
    "http_reqs{expected_response:true}": ["count==9"],
    "http_req_duration{expected_response:true}": ["max<10000"],
    "http_reqs{status:500}": ["count==3"],
  },
};

export default function () {
  for (const code of [404, 418, 500]) {
    const res = http.get(`${BASE}/status/${code}`);
    check(res, { [`got ${code}`]: (r) => r.status === code });
  }
  http.get(`${BASE}/get`);
}
