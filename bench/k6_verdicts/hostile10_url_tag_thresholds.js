// args: -u 1 -i 3
// Thresholds on the `url` and `name` tags; http.url sets both to its template, as k6 tags it.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    "http_reqs{url:http://127.0.0.1:18481/get}": ["count==3"],
    "http_reqs{name:http://127.0.0.1:18481/anything/${}}": ["count==3"],
    "http_reqs{url:http://127.0.0.1:18481/anything/${}}": ["count==3"],
    "http_reqs{method:POST}": ["count==3"],
    checks: ["rate==1"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  const id = __ITER;
  const r = http.get(http.url`http://127.0.0.1:18481/anything/${id}`);
  check(r, { "templated": (res) => res.status === 200 });
  http.post("http://127.0.0.1:18481/post", "x");
}
