// args: -u 1 -i 6
// fail() ends an iteration after a failed check; the next iteration runs, the run exits 0.
import http from "k6/http";
import { check, fail } from "k6";
import { Counter } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const reached = new Counter("reached_end");

export const options = {
  thresholds: { reached_end: ["count==3"], iterations: ["count==6"], http_reqs: ["count==6"] },
};

export default function () {
  const code = __ITER % 2 === 0 ? 200 : 500;
  const res = http.get(`${BASE}/status/${code}`);
  if (!check(res, { "status 200": (r) => r.status === 200 })) {
    fail(`unexpected status ${res.status}`);
  }
  reached.add(1);
}
