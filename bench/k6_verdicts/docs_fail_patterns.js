// args: -u 1 -i 6
// k6's documentation's fail(): `check(...) || fail(...)` ends an iteration, a thrown Error does too, the
// iterations counted and the script errors do not fail the run; a later request is never sent.
import http from "k6/http";
import { check, fail } from "k6";
import { Counter } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const reached = new Counter("reached_end");

export const options = {
  thresholds: {
    reached_end: ["count==2"],
    iterations: ["count==6"],
    "http_reqs{name:after}": ["count==2"],
    checks: ["rate<0.7"],
  },
};

export default function () {
  const code = [200, 500, 404][__ITER % 3];
  const res = http.get(`${BASE}/status/${code}`);
  if (code === 500) {
    check(res, { "not a 500": (r) => r.status !== 500 }) || fail(`status code was *not* 200: ${res.status}`);
  }
  if (code === 404) throw new Error("missing page");
  check(res, { "200": (r) => r.status === 200 });
  http.get(`${BASE}/get`, { tags: { name: "after" } });
  reached.add(1);
}
