// args: -u 2 -i 6
// A team whose API answers 400 on purpose: setResponseCallback with a range and a status, by its name.
import http from "k6/http";
import { expectedStatuses, setResponseCallback } from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

setResponseCallback(expectedStatuses({ min: 200, max: 204 }, 400));

export const options = {
  thresholds: {
    http_req_failed: ["rate<0.4"],
    "http_reqs{expected_response:false}": ["count==6"],
    "http_req_failed{status:400}": ["rate==0"],
  },
};

export default function () {
  http.get(`${BASE}/json`);
  http.get(`${BASE}/validate?id=bad`);
  http.get(`${BASE}/no-such-page`);
}
