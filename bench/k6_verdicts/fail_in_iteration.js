// args: -i 6
// fail() ends an iteration with an error; console.error logs; the run goes on and is judged as k6 judges.
import http from "k6/http";
import { check, fail } from "k6";
import { Counter } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const reached = new Counter("reached_end");

export const options = {
  thresholds: { reached_end: ["count==3"], http_reqs: ["count==6"], iterations: ["count==6"] },
};

export default function () {
  const res = http.get(`${BASE}/validate?id=${__ITER % 2 === 0 ? "1" : "bad"}`);
  if (!check(res, { "valid id": (r) => r.status === 200 })) {
    console.error(`iteration ${__ITER}: status ${res.status}`);
    fail(`status ${res.status}`);
  }
  reached.add(1);
}
