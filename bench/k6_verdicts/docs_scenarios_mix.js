// args:
// k6's documentation's scenarios: five executors at once, each with its own exec, env, tags, startTime and
// graceful stop, judged per scenario.
import http from "k6/http";
import { check, sleep } from "k6";
import exec from "k6/execution";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    shared: { executor: "shared-iterations", vus: 2, iterations: 6, exec: "browse", maxDuration: "10s" },
    per_vu: { executor: "per-vu-iterations", vus: 2, iterations: 2, exec: "browse", startTime: "1s" },
    steady: {
      executor: "constant-vus",
      vus: 1,
      duration: "2s",
      exec: "api",
      env: { KIND: "steady" },
      tags: { tier: "api" },
    },
    ramp: {
      executor: "ramping-vus",
      startVUs: 0,
      stages: [{ duration: "1s", target: 2 }, { duration: "1s", target: 0 }],
      gracefulRampDown: "0s",
      exec: "api",
      env: { KIND: "ramp" },
    },
    rate: {
      executor: "constant-arrival-rate",
      rate: 4,
      timeUnit: "1s",
      duration: "2s",
      preAllocatedVUs: 2,
      exec: "api",
      env: { KIND: "rate" },
    },
  },
  thresholds: {
    "iterations{scenario:shared}": ["count==6"],
    "iterations{scenario:per_vu}": ["count==4"],
    "iterations{scenario:rate}": ["count>=7", "count<=9"],
    "http_reqs{tier:api}": ["count>0"],
    "checks{scenario:steady}": ["rate==1"],
    checks: ["rate==1"],
  },
};

export function browse() {
  check(http.get(`${BASE}/get?s=${exec.scenario.name}`), {
    "browse sees its scenario": (r) => r.json("args.s") === exec.scenario.name,
  });
}

export function api() {
  const res = http.get(`${BASE}/get?kind=${__ENV.KIND}`);
  check(res, { "env of its scenario": (r) => r.json("args.kind") === exec.scenario.name });
  sleep(0.25);
}
