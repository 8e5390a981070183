// args:
// exec.instance.vusActive as teams gate on it: every VU of a closed scenario active while it runs, an
// arrival rate's VU active in its iteration only (the closed VUs gone by then).
import http from "k6/http";
import { check, sleep } from "k6";
import exec from "k6/execution";
import { Trend } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const seen = new Trend("vus_active_seen");

export const options = {
  scenarios: {
    steady: { executor: "constant-vus", vus: 3, duration: "2s", exec: "steady" },
    arrivals: {
      executor: "constant-arrival-rate",
      rate: 4,
      timeUnit: "1s",
      duration: "1s",
      preAllocatedVUs: 2,
      startTime: "3s",
      exec: "arrival",
    },
  },
  thresholds: {
    checks: ["rate==1"],
    "vus_active_seen{scenario:steady}": ["min==3", "max==3"],
    "vus_active_seen{scenario:arrivals}": ["min>=1", "max<=2"],
  },
};

export function steady() {
  if (__ITER > 0) seen.add(exec.instance.vusActive);
  // No check here: how many iterations fit in 2 s follows the machine's load, not the verdict.
  http.get(`${BASE}/get`);
  sleep(0.2);
}

export function arrival() {
  seen.add(exec.instance.vusActive);
  check(http.get(`${BASE}/get`), { "arrival sent": (r) => r.status === 200 });
}
