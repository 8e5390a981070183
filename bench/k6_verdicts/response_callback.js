// args: -i 4
// http.setResponseCallback(expectedStatuses(200, 400)): a 400 is expected, so no request failed.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

http.setResponseCallback(http.expectedStatuses(200, 400));

export const options = {
  thresholds: { http_req_failed: ["rate==0"], "http_reqs{expected_response:true}": ["count==8"] },
};

export default function () {
  http.get(`${BASE}/json`);
  http.get(`${BASE}/validate`);
}
