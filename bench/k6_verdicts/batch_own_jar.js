// args:
// http.batch with a request's own cookie jar: the cookie lands in that jar, not the VU's.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = { iterations: 2, thresholds: { checks: ["rate==1"] } };

export default function () {
  const jar = new http.CookieJar();
  const [set] = http.batch([
    ["GET", `${BASE}/cookies/set?team=blue`, null, { jar, redirects: 0 }],
    ["GET", `${BASE}/get`],
  ]);
  check(set, { "set answered": (r) => r.status === 302 || r.status === 200 });
  const mine = jar.cookiesForURL(`${BASE}/`);
  const vus = http.cookieJar().cookiesForURL(`${BASE}/`);
  check(mine, { "own jar has it": (c) => c.team !== undefined && c.team[0] === "blue" });
  check(vus, { "VU jar has it not": (c) => c.team === undefined });
  const [again] = http.batch([{ method: "GET", url: `${BASE}/cookies`, params: { jar } }]);
  check(again, { "own jar sends it": (r) => r.json().cookies.team === "blue" });
  const vuSees = http.get(`${BASE}/cookies`);
  check(vuSees, { "VU request sends it not": (r) => r.json().cookies.team === undefined });
}
