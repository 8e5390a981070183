// args: -i 4
// fail() inside a check's function: the check throws, so it is not counted and the iteration ends there.
import http from "k6/http";
import { check, fail } from "k6";
import { Counter } from "k6/metrics";

const after = new Counter("after_check");

export const options = { thresholds: { after_check: ["count==2"], iterations: ["count==4"] } };

export default function () {
  const bad = __ITER % 2 === 1;
  const res = http.get(`http://127.0.0.1:18481/status/${bad ? 500 : 200}`);
  check(res, { "status is 200": (r) => r.status === 200 || fail(`status ${r.status}`) });
  after.add(1);
}
