// args: -i 3
// http.setResponseCallback with statuses and a range; a request's own responseCallback over it.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

http.setResponseCallback(http.expectedStatuses(200, { min: 400, max: 404 }));

export const options = {
  thresholds: {
    http_req_failed: ["rate<0.3"],
    "http_req_failed{status:404}": ["rate==0"],
    "http_req_failed{status:500}": ["rate==1"],
    "http_req_duration{expected_response:true}": ["max>=0"],
  },
};

export default function () {
  http.get(`${BASE}/status/404`);
  http.get(`${BASE}/status/500`);
  http.get(`${BASE}/status/500`, { responseCallback: http.expectedStatuses(500) });
  http.get(`${BASE}/get`);
}
