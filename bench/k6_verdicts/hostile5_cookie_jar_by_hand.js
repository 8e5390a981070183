// The VU's jar by hand: a cookie set for the origin, one for a path that does not match, a request's own
// `cookies` replacing the jar's, one deleted and the jar cleared.
import http from "k6/http";
import { check } from "k6";

export const options = { iterations: 2, thresholds: { checks: ["rate==1"] } };

export default function () {
  const base = "http://127.0.0.1:18481";
  const jar = http.cookieJar();
  jar.set(base, "session", "s1");
  jar.set(base, "admin", "yes", { path: "/admin" });
  let res = http.get(`${base}/cookies`);
  check(res, {
    "jar sent": (r) => r.json("cookies.session") === "s1",
    "path kept out": (r) => r.json("cookies.admin") === undefined,
  });
  res = http.get(`${base}/cookies`, { cookies: { session: { value: "s2", replace: true } } });
  check(res, { "replaced": (r) => r.json("cookies.session") === "s2" });
  jar.delete(base, "session");
  res = http.get(`${base}/cookies`);
  check(res, { "deleted": (r) => r.json("cookies.session") === undefined });
  jar.set(base, "other", "o");
  jar.clear(base);
  check(jar.cookiesForURL(`${base}/`), { "cleared": (c) => Object.keys(c).length === 0 });
}
