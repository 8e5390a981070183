// args: -u 1 -i 2
// res.request as k6 fills it: method, url, the headers sent (arrays by name) and the body.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const r = http.post("http://127.0.0.1:18481/post?x=1", JSON.stringify({ a: 1 }), {
    headers: { "Content-Type": "application/json", "X-Trace": "t-1" },
  });
  const q = r.request;
  check(q, {
    "method": (v) => v.method === "POST",
    "url": (v) => v.url === "http://127.0.0.1:18481/post?x=1",
    "body": (v) => v.body === '{"a":1}',
    "header array": (v) => Array.isArray(v.headers["X-Trace"]) && v.headers["X-Trace"][0] === "t-1",
    "content type": (v) => v.headers["Content-Type"][0] === "application/json",
  });
  check(r, { "url of response": (v) => v.url === "http://127.0.0.1:18481/post?x=1" });
}
