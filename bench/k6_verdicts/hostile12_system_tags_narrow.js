// args: -u 1 -i 3 --system-tags status,method,name
// A narrowed --system-tags: thresholds on kept tags count requests, one on a dropped tag sees none.
import http from "k6/http";

export const options = {
  thresholds: {
    "http_reqs{status:200}": ["count==3"],
    "http_reqs{method:POST}": ["count==3"],
    "http_reqs{name:http://127.0.0.1:18481/get}": ["count==3"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  http.post("http://127.0.0.1:18481/post", "a=1");
}
