// args: -u 2 -i 4
// k6's documentation's cookies: a response's `cookies`, the VU's jar read with cookiesForURL, a cookie set
// with its attributes, one deleted, the jar cleared, and a request's `cookies` param with `replace`.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"], "http_reqs{name:cookies}": ["count==12"] } };

export default function () {
  const jar = http.cookieJar();
  const set = http.get(`${BASE}/cookies/set?my_cookie=hello&other=1`, { redirects: 0 });
  check(set, {
    "302": (r) => r.status === 302,
    "response cookies": (r) =>
      r.cookies.my_cookie[0].value === "hello" && r.cookies.my_cookie[0].path === "/",
  });
  check(jar.cookiesForURL(`${BASE}/`), {
    "jar has both": (c) => c.my_cookie[0] === "hello" && c.other[0] === "1",
  });
  jar.set(`${BASE}/`, "with_attrs", "yes", { path: "/cookies", max_age: 600, http_only: true });
  jar.delete(`${BASE}/`, "other");
  const seen = http.get(`${BASE}/cookies`, { tags: { name: "cookies" } }).json("cookies");
  check(seen, {
    "kept": (c) => c.my_cookie === "hello",
    "deleted": (c) => c.other === undefined,
    "set with a path": (c) => c.with_attrs === "yes",
  });
  const replaced = http.get(`${BASE}/cookies`, {
    cookies: { my_cookie: { value: "replaced", replace: true }, extra: "x" },
    tags: { name: "cookies" },
  }).json("cookies");
  check(replaced, { "replace": (c) => c.my_cookie === "replaced" && c.extra === "x" });
  jar.clear(`${BASE}/`);
  check(http.get(`${BASE}/cookies`, { tags: { name: "cookies" } }).json("cookies"), {
    "cleared": (c) => Object.keys(c).length === 0,
  });
}
