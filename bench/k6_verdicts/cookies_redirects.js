// args: -u 2 -i 6
// The VU's cookie jar across a redirect, a jar of the script's own, and maxRedirects: 0 on one request.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: { checks: ["rate==1"], "http_reqs{name:hop}": ["count==6"] },
};

export default function () {
  const set = http.get(`${BASE}/cookies/set?flavour=oat`);
  check(set, {
    "followed to /cookies": (r) => r.url.endsWith("/cookies"),
    "cookie sent back": (r) => r.json("cookies.flavour") === "oat",
  });
  const stay = http.get(`${BASE}/redirect/2`, { redirects: 0, tags: { name: "hop" } });
  check(stay, { "not followed": (r) => r.status === 302 });
  const jar = new http.CookieJar();
  jar.set(`${BASE}/cookies`, "own", "yes");
  check(http.get(`${BASE}/cookies`, { jar }), { "own jar": (r) => r.json("cookies.own") === "yes" });
}
