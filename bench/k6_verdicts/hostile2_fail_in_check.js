// args: -u 2 -i 4
// console.error with objects, and fail() called inside a check's function: k6 ends the iteration there
// (the request after it is never sent), the check counted neither way.
import http from "k6/http";
import exec from "k6/execution";
import { check, fail } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: { "http_reqs{name:after}": ["count==2"], checks: ["rate==1"] },
};

export default function () {
  // Shared iterations split unevenly over VUs: the test-wide number decides, as __ITER would not.
  const n = exec.scenario.iterationInTest;
  const res = http.get(`${BASE}/status/${n % 2 === 0 ? 500 : 200}`);
  check(res, { "got answer": (r) => r.status > 0 });
  if (res.status !== 200) console.error("bad status", res.status, { vu: __VU, iter: n });
  check(res, {
    "status 200 or fail": (r) => r.status === 200 || fail(`unexpected ${r.status}`),
  });
  http.get(`${BASE}/get`, { tags: { name: "after" } });
}
