// args:
// Scenarios that start at different times: a warm-up, then a steady scenario starting at 1 s, then a
// one-shot at 2 s; thresholds per scenario.
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    warmup: { executor: "shared-iterations", vus: 1, iterations: 3, maxDuration: "5s" },
    steady: { executor: "constant-vus", vus: 2, duration: "1s", startTime: "1s", exec: "steady" },
    once: { executor: "per-vu-iterations", vus: 2, iterations: 2, startTime: "2s", exec: "once" },
  },
  thresholds: {
    "iterations{scenario:warmup}": ["count==3"],
    "iterations{scenario:once}": ["count==4"],
    "http_reqs{scenario:steady}": ["count>4"],
    "checks{scenario:once}": ["rate==1"],
  },
};

export default function () {
  http.get(`${BASE}/json`);
}

export function steady() {
  http.get(`${BASE}/json`);
}

export function once() {
  const res = http.get(`${BASE}/get?s=${exec.scenario.name}`);
  check(res, { "named once": (r) => r.json("args.s") === "once" });
}
