// args: -i 3
// The cookie jar's API as session tests use it: a cookie set in the VU's jar for a URL, read back, deleted
// and cleared; per-request cookies with and without replace; a request with its own jar.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"], "http_reqs{name:cookies}": ["count==12"] } };

export default function () {
  const jar = http.cookieJar();
  jar.set(BASE, "session", "abc123");
  jar.set(BASE, "theme", "dark");
  const tags = { name: "cookies" };
  let res = http.get(`${BASE}/cookies`, { tags });
  check(res, {
    "jar cookies sent": (r) => r.json("cookies.session") === "abc123" && r.json("cookies.theme") === "dark",
    "jar read back": () => jar.cookiesForURL(BASE).session[0] === "abc123",
  });
  res = http.get(`${BASE}/cookies`, { tags, cookies: { session: "override" } });
  check(res, { "jar wins without replace": (r) => r.json("cookies.session") === "abc123" });
  res = http.get(`${BASE}/cookies`, { tags, cookies: { session: { value: "override", replace: true } } });
  check(res, { "replace wins": (r) => r.json("cookies.session") === "override" });
  jar.delete(BASE, "theme");
  const own = new http.CookieJar();
  own.set(BASE, "mine", "1");
  res = http.get(`${BASE}/cookies`, { tags, jar: own });
  check(res, {
    "own jar only": (r) => r.json("cookies.mine") === "1" && r.json("cookies.session") === undefined,
  });
  jar.clear(BASE);
  check(jar.cookiesForURL(BASE), { "cleared": (c) => Object.keys(c).length === 0 });
}
