// args: -i 2
// The cookie jar's API: set with options, cookiesForURL, delete, clear, a jar of its own per request, and
// request cookies that replace the jar's.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

const base = "http://127.0.0.1:18481";

export default function () {
  const jar = http.cookieJar();
  jar.set(base, "session", "abc", { path: "/" });
  jar.set(base, "theme", "dark");
  const seen = http.get(`${base}/cookies`).json("cookies");
  const forUrl = jar.cookiesForURL(`${base}/cookies`);
  jar.delete(base, "theme");
  const afterDelete = http.get(`${base}/cookies`).json("cookies");
  const replaced = http.get(`${base}/cookies`, { cookies: { session: { value: "xyz", replace: true } } })
    .json("cookies");
  jar.clear(base);
  const cleared = http.get(`${base}/cookies`).json("cookies");
  const own = new http.CookieJar();
  own.set(base, "mine", "1");
  const ownSeen = http.get(`${base}/cookies`, { jar: own }).json("cookies");
  check(null, {
    "both sent": () => seen.session === "abc" && seen.theme === "dark",
    "cookiesForURL": () => forUrl.session[0] === "abc",
    "deleted": () => afterDelete.theme === undefined && afterDelete.session === "abc",
    "replaced": () => replaced.session === "xyz",
    "cleared": () => Object.keys(cleared).length === 0,
    "own jar": () => ownSeen.mine === "1" && ownSeen.session === undefined,
  });
}
