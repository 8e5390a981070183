// args: -i 2
// Thresholds filtered by method, status, name, url (with its query) and expected_response.
import http from "k6/http";

export const options = {
  thresholds: {
    "http_req_duration{method:POST}": ["max<5000"],
    "http_reqs{method:POST}": ["count==2"],
    "http_reqs{status:404}": ["count==2"],
    "http_req_failed{name:missing}": ["rate==1"],
    "http_reqs{expected_response:false}": ["count==2"],
    "http_req_duration{expected_response:true}": ["p(95)<5000"],
    "http_reqs{url:http://127.0.0.1:18481/get?x=1}": ["count==2"],
    "http_reqs{method:DELETE}": ["count==0"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get?x=1");
  http.post("http://127.0.0.1:18481/post", "a=1");
  http.get("http://127.0.0.1:18481/status/404", { tags: { name: "missing" } });
}
