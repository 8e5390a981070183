// args: -u 1 -i 2
// jar.set with expires in the past and max_age, path scoping in cookiesForURL, a request's own jar.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

const BASE = "http://127.0.0.1:18481";

export default function () {
  const jar = http.cookieJar();
  jar.set(BASE, "session", "s1", { path: "/" });
  jar.set(BASE, "old", "x", { expires: "Mon, 02 Jan 2006 15:04:05 GMT" });
  jar.set(BASE, "scoped", "y", { path: "/cookies" });
  jar.set(BASE, "brief", "z", { max_age: 3600 });
  check(jar.cookiesForURL(`${BASE}/get`), {
    "expired dropped": (c) => c.old === undefined,
    "path scoped out": (c) => c.scoped === undefined,
    "session kept": (c) => c.session[0] === "s1",
    "max_age kept": (c) => c.brief[0] === "z",
  });
  const sent = http.get(`${BASE}/cookies`);
  check(sent, {
    "scoped sent": (r) => r.json("cookies.scoped") === "y" && r.json("cookies.old") === undefined,
  });
  const own = new http.CookieJar();
  const alone = http.get(`${BASE}/cookies`, { jar: own });
  check(alone, { "own jar empty": (r) => Object.keys(r.json("cookies")).length === 0 });
  jar.clear(BASE);
}
