// args: -u 1 -i 4
// A cookie the server sets lives for its iteration only: k6 empties the VU's jar before each.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const before = http.get(`${BASE}/cookies`);
  check(before, { "jar empty at start": (r) => Object.keys(r.json("cookies")).length === 0 });
  if (__ITER % 2 === 0) {
    const set = http.get(`${BASE}/cookies/set?session=s${__ITER}&theme=dark`);
    check(set, { "set and followed": (r) => r.json("cookies.session") === `s${__ITER}` });
  }
  const after = http.get(`${BASE}/cookies`);
  check(after, {
    "kept within the iteration": (r) => (r.json("cookies.session") === `s${__ITER}`) === (__ITER % 2 === 0),
  });
}
