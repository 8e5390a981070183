// args:
// randomSeed: init code's draws seeded, and every VU seeding itself draws the seed's sequence.
import http from "k6/http";
import { check, randomSeed } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
randomSeed(20261127);
const expected = [Math.random(), Math.random(), Math.random(), Math.random(), Math.random()];

export const options = {
  scenarios: { draws: { executor: "per-vu-iterations", vus: 3, iterations: 3 } },
  thresholds: { checks: ["rate==1"], http_reqs: ["count==9"] },
};

export default function () {
  if (__ITER === 0) randomSeed(20261127);
  const r = Math.random();
  const path = r < 0.5 ? "/get" : "/json";
  check(http.get(`${BASE}${path}`), {
    "the seed's sequence": () => r === expected[__ITER],
    "answered": (res) => res.status === 200,
  });
}
