// A global `setResponseCallback` of 2xx and 404, a request's own responseCallback of 503 alone, and
// thresholds on `http_req_failed` and on `expected_response`.
import http from "k6/http";

http.setResponseCallback(http.expectedStatuses(404, { min: 200, max: 299 }));

export const options = {
  iterations: 2,
  thresholds: {
    http_req_failed: ["rate<0.3"],
    "http_reqs{expected_response:true}": ["count==6"],
    "http_reqs{expected_response:false}": ["count==2"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  http.get("http://127.0.0.1:18481/status/404");
  http.get("http://127.0.0.1:18481/status/503", { responseCallback: http.expectedStatuses(503) });
  http.get("http://127.0.0.1:18481/status/500");
}
