// args: -i 2
// http_req_duration{expected_response:true} with a response callback that expects 200 and 404.
import http from "k6/http";

http.setResponseCallback(http.expectedStatuses(200, 404));

export const options = {
  thresholds: {
    "http_reqs{expected_response:true}": ["count==4"],
    "http_reqs{expected_response:false}": ["count==2"],
    "http_req_duration{expected_response:true}": ["max<5000"],
    http_req_failed: ["rate<0.4"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  http.get("http://127.0.0.1:18481/status/404");
  http.get("http://127.0.0.1:18481/status/503");
}
