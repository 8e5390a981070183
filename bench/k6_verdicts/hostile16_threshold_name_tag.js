// args: -i 3
// Thresholds by a request's name tag and by a URL's name given with http.url, one failing.
import http from "k6/http";

export const options = {
  thresholds: {
    "http_reqs{name:login}": ["count==3"],
    "http_req_failed{name:login}": ["rate==0"],
    "http_req_failed{name:missing}": ["rate<0.5"],
    "http_reqs{name:http://127.0.0.1:18481/anything/${}}": ["count==3"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get", { tags: { name: "login" } });
  http.get("http://127.0.0.1:18481/status/404", { tags: { name: "missing" } });
  http.get(http.url`http://127.0.0.1:18481/anything/${__ITER}`);
}
