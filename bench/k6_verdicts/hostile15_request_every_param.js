// args: -i 2
// http.request with every param at once: headers, tags, timeout, redirects, responseType, cookies, jar, auth.
import http from "k6/http";
import { check } from "k6";

const jar = new http.CookieJar();

export const options = {
  thresholds: {
    "http_reqs{name:all}": ["count==2"],
    "http_reqs{flow:full}": ["count==2"],
    checks: ["rate==1"],
  },
};

export default function () {
  jar.set("http://127.0.0.1:18481", "session", "s1");
  const res = http.request("PUT", "http://127.0.0.1:18481/anything/x?q=1", JSON.stringify({ a: 1 }), {
    headers: { "Content-Type": "application/json", "X-Trace": "abc" },
    tags: { name: "all", flow: "full" },
    timeout: "10s",
    redirects: 3,
    responseType: "text",
    cookies: { extra: "e1" },
    jar,
    compression: "",
  });
  check(res, {
    "200": (r) => r.status === 200,
    "method": (r) => r.json("method") === "PUT",
    "header": (r) => r.json("headers.X-Trace") === "abc",
    "cookies": (r) =>
      /session=s1/.test(r.json("headers.Cookie")) && /extra=e1/.test(r.json("headers.Cookie")),
    "body": (r) => r.json("json.a") === 1,
    "request": (r) => r.request.method === "PUT" && r.request.url.endsWith("?q=1"),
    "text": (r) => typeof r.body === "string",
  });
}
