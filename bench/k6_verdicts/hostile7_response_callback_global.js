// args: -i 2
// http.setResponseCallback with a range and a code, a per-request callback over it, and thresholds on
// expected_response and http_req_failed.
import http from "k6/http";

http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 404));

export const options = {
  thresholds: {
    http_req_failed: ["rate<0.3"],
    "http_reqs{expected_response:false}": ["count==2"],
    "http_reqs{expected_response:true}": ["count==6"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  http.get("http://127.0.0.1:18481/status/404");
  http.get("http://127.0.0.1:18481/status/500");
  http.get("http://127.0.0.1:18481/status/503", { responseCallback: http.expectedStatuses(503) });
}
