// args:
// per-vu-iterations and shared-iterations read k6/execution's counters into tags and checks.
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    each: { executor: "per-vu-iterations", vus: 2, iterations: 3 },
    shared: { executor: "shared-iterations", vus: 2, iterations: 4, startTime: "0s", exec: "shared" },
  },
  thresholds: {
    "iterations{scenario:each}": ["count==6"],
    "iterations{scenario:shared}": ["count==4"],
    checks: ["rate==1"],
  },
};

export default function () {
  check(exec.vu.iterationInScenario, { "per vu under 3": (n) => n >= 0 && n < 3 });
  check(exec.scenario, { "named each": (s) => s.name === "each" && s.executor === "per-vu-iterations" });
  http.get(`${BASE}/get?it=${exec.scenario.iterationInTest}`, { tags: { name: "each" } });
}

export function shared() {
  check(exec.scenario.iterationInTest, { "shared under 4": (n) => n >= 0 && n < 4 });
  check(exec.vu, { "vu id": (v) => v.idInTest >= 1 && v.idInTest <= 4 });
  http.get(`${BASE}/get`, { tags: { name: "shared" } });
}
