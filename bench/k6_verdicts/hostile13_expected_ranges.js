// args: -u 1 -i 2
// http.setResponseCallback with a status range and a single status: 404 expected, 500 failed.
import http from "k6/http";

http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 404));

export const options = {
  thresholds: {
    http_req_failed: ["rate<0.4", "rate>0.2"],
    "http_req_failed{status:404}": ["rate==0"],
    "http_req_failed{status:500}": ["rate==1"],
    "http_reqs{expected_response:false}": ["count==2"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  http.get("http://127.0.0.1:18481/status/404");
  http.get("http://127.0.0.1:18481/status/500");
}
