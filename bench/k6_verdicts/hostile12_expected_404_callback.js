// args: -u 1 -i 3
// A 404 declared expected by setResponseCallback: http_req_failed{expected_response:true} over it.
import http from "k6/http";

http.setResponseCallback(http.expectedStatuses(200, 404));

export const options = {
  thresholds: {
    http_req_failed: ["rate==0.25"],
    "http_req_failed{expected_response:true}": ["rate==0"],
    "http_reqs{expected_response:true}": ["count==9"],
    "http_reqs{status:404}": ["count==3"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  http.get("http://127.0.0.1:18481/status/404");
  http.get("http://127.0.0.1:18481/status/201");
  http.get("http://127.0.0.1:18481/get?again=1");
}
