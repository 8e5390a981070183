// args: -i 2
// Cookies set by a redirect's response, kept across the redirect, then cleared with jar.clear(url) and
// a per-request cookie that overrides the jar's.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"], http_req_failed: ["rate==0"] } };

export default function () {
  const jar = http.cookieJar();
  const res = http.get(`${BASE}/cookies/set?session=abc&theme=dark`);
  check(res, {
    "followed to /cookies": (r) => r.url === `${BASE}/cookies`,
    "cookie sent after redirect": (r) => r.json("cookies.session") === "abc",
    "jar has it": () => jar.cookiesForURL(BASE).theme[0] === "dark",
  });
  const over = http.get(`${BASE}/cookies`, { cookies: { theme: { value: "light", replace: true } } });
  check(over, { "replaced per request": (r) => r.json("cookies.theme") === "light" });
  jar.clear(BASE);
  const after = http.get(`${BASE}/cookies`);
  check(after, {
    "cleared": (r) => Object.keys(r.json("cookies")).length === 0,
    "jar empty": () => Object.keys(jar.cookiesForURL(BASE)).length === 0,
  });
}
