// args: -u 2 -i 20
// A check that fails every other time: its counts, and a checks threshold that does not hold.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate>0.9"] } };

export default function () {
  const res = http.get(__ITER % 2 === 0 ? `${BASE}/json` : `${BASE}/validate`);
  check(res, { "is 200": (r) => r.status === 200, "answered": (r) => r.status > 0 });
}
