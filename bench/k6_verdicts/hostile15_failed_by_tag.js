// args: -i 3
// http_req_failed by name, status, method, expected_response, scenario and a custom tag.
import http from "k6/http";

export const options = {
  thresholds: {
    "http_req_failed{name:bad}": ["rate==1"],
    "http_req_failed{name:good}": ["rate==0"],
    "http_req_failed{status:500}": ["rate==1"],
    "http_req_failed{status:200}": ["rate==0"],
    "http_req_failed{method:POST}": ["rate==1"],
    "http_req_failed{expected_response:false}": ["rate==1"],
    "http_req_failed{scenario:default}": ["rate<0.6", "rate>0.4"],
    "http_req_failed{kind:api}": ["rate==0.5"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get", { tags: { name: "good", kind: "api" } });
  http.post("http://127.0.0.1:18481/status/500", null, { tags: { name: "bad", kind: "api" } });
}
