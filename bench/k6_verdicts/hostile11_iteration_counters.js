// args:
// exec.scenario.iterationInTest and exec.vu.iterationInScenario pick what an iteration does.
import http from "k6/http";
import exec from "k6/execution";
import { Counter } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const picks = new Counter("picks");

export const options = {
  scenarios: {
    shared: { executor: "shared-iterations", vus: 2, iterations: 6, exec: "shared" },
    each: { executor: "per-vu-iterations", vus: 2, iterations: 3, exec: "each", startTime: "1s" },
  },
  thresholds: {
    "picks{parity:even}": ["count==3"],
    "picks{parity:odd}": ["count==3"],
    "picks{first:yes}": ["count==2"],
    "picks{first:no}": ["count==4"],
    "http_reqs{scenario:shared}": ["count==6"],
  },
};

export function shared() {
  const n = exec.scenario.iterationInTest;
  picks.add(1, { parity: n % 2 === 0 ? "even" : "odd" });
  http.get(`${BASE}/get?n=${n}`);
}

export function each() {
  picks.add(1, { first: exec.vu.iterationInScenario === 0 ? "yes" : "no" });
  http.get(`${BASE}/get`);
}
