// args: -u 2 -i 4
// A global response callback taking 2xx and 404 as expected, one request with responseCallback: null
// (nothing judged), and thresholds on http_req_failed overall and by expected_response.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 404));

export const options = {
  thresholds: {
    http_req_failed: ["rate<0.3", "rate>0.2"],
    "http_req_failed{name:unjudged}": ["rate==0"],
    "http_reqs{expected_response:true}": ["count==8"],
    "http_reqs{expected_response:false}": ["count==4"],
  },
};

export default function () {
  http.get(`${BASE}/get`);
  http.get(`${BASE}/status/404`);
  http.get(`${BASE}/status/500`);
  http.get(`${BASE}/status/503`, { responseCallback: null, tags: { name: "unjudged" } });
}
