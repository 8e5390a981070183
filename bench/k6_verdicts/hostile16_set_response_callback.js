// args: -i 2
// http.setResponseCallback with statuses and a range: 404 and 2xx are expected, 500 is not.
import http from "k6/http";

http.setResponseCallback(http.expectedStatuses(404, { min: 200, max: 299 }));

export const options = {
  thresholds: {
    http_req_failed: ["rate>0.3", "rate<0.4"],
    "http_req_duration{expected_response:true}": ["max<5000"],
    "http_reqs{expected_response:false}": ["count==2"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/status/404");
  http.get("http://127.0.0.1:18481/status/500");
  http.get("http://127.0.0.1:18481/get");
}
