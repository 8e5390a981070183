// args: -u 1 -i 4
// options.noCookiesReset: the VU's jar kept from one iteration to the next (k6 empties it by default).
import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const kept = new Counter("cookie_kept");

export const options = { noCookiesReset: true, thresholds: { cookie_kept: ["count==3"] } };

export default function () {
  const seen = http.get(`${BASE}/cookies`).json("cookies");
  if (seen.visit !== undefined) kept.add(1);
  http.get(`${BASE}/cookies/set?visit=${__ITER}`);
  check(seen, { "a cookie after the first": (c) => __ITER === 0 || c.visit === String(__ITER - 1) });
}
