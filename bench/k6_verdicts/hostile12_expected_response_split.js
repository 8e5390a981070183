// args: -u 1 -i 4
// Failures split by expected_response: the expected requests never fail, the others are all 5xx.
import http from "k6/http";

export const options = {
  thresholds: {
    "http_req_failed{expected_response:true}": ["rate==0"],
    "http_req_failed{expected_response:false}": ["rate==1"],
    "http_req_duration{expected_response:true}": ["p(95)<5000"],
    "http_reqs{expected_response:false}": ["count==4"],
    http_req_failed: ["rate==0.5"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/status/200");
  http.get("http://127.0.0.1:18481/status/503");
}
