// args:
// A second scenario that starts later, a ramp-down with gracefulRampDown and a gracefulStop that lets a
// slow iteration finish.
import http from "k6/http";
import { check, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    ramp: {
      executor: "ramping-vus",
      startVUs: 0,
      stages: [{ duration: "1s", target: 2 }, { duration: "1s", target: 0 }],
      gracefulRampDown: "2s",
      exec: "slow",
    },
    late: {
      executor: "per-vu-iterations",
      vus: 1,
      iterations: 3,
      startTime: "1500ms",
      gracefulStop: "3s",
      exec: "late",
    },
  },
  thresholds: {
    "http_reqs{scenario:late}": ["count==3"],
    "checks{scenario:ramp}": ["rate==1"],
    "iterations{scenario:late}": ["count==3"],
  },
};

export function slow() {
  const res = http.get(`${BASE}/sleep?ms=300`);
  check(res, { "slow answered": (r) => r.status === 200 });
}

export function late() {
  http.get(`${BASE}/json`);
  sleep(0.2);
}
