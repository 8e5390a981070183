// args: -u 1 -i 4
// k6's documentation's setResponseCallback: 200 and 3xx expected run-wide, a 404 expected for one request
// by its own responseCallback, and http_req_failed and http_req_duration judged by expected_response.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

http.setResponseCallback(http.expectedStatuses(200, { min: 300, max: 399 }));

export const options = {
  thresholds: {
    http_req_failed: ["rate<0.3"],
    "http_req_failed{name:teapot}": ["rate==1"],
    "http_reqs{expected_response:true}": ["count==12"],
    "http_reqs{expected_response:false}": ["count==4"],
    "http_reqs{expected_response:true,name:missing}": ["count==4"],
  },
};

export default function () {
  check(http.get(`${BASE}/status/200`), { "200": (r) => r.status === 200 });
  check(http.get(`${BASE}/status/301`, { redirects: 0 }), { "301": (r) => r.status === 301 });
  http.get(`${BASE}/status/418`, { tags: { name: "teapot" } });
  http.get(`${BASE}/status/404`, {
    tags: { name: "missing" },
    responseCallback: http.expectedStatuses(404),
  });
}
