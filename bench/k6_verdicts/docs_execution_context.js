// args: -u 2 -i 6
// k6's documentation's execution context variables: k6/execution's test, scenario, vu and instance fields
// in init, setup, the iterations and teardown, and the run's options read back.
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";
import { Counter } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const seen = new Counter("seen_iterations");

export const options = {
  tags: { run: "ctx" },
  thresholds: {
    checks: ["rate==1"],
    seen_iterations: ["count==6"],
    "seen_iterations{vu_id:1}": ["count>=1"],
  },
};

export function setup() {
  return { setupVu: exec.vu.idInTest };
}

export default function (data) {
  seen.add(1, { vu_id: String(exec.vu.idInTest) });
  http.get(`${BASE}/get?vu=${exec.vu.idInTest}&iter=${exec.vu.iterationInScenario}`);
  check(exec, {
    "setup ran on vu 0": () => data.setupVu === 0,
    "scenario name": (e) => e.scenario.name === "default",
    "executor": (e) => e.scenario.executor === "shared-iterations",
    "iteration in test below 6": (e) => e.scenario.iterationInTest >= 0 && e.scenario.iterationInTest < 6,
    "vu id in instance": (e) => e.vu.idInInstance >= 1 && e.vu.idInInstance <= 2,
    "iteration in instance": (e) => e.vu.iterationInInstance === e.vu.iterationInScenario,
    "start time": (e) => typeof e.scenario.startTime === "number" && e.scenario.startTime <= Date.now(),
    "vus active": (e) => e.instance.vusActive >= 1 && e.instance.vusInitialized === 2,
    "current test run duration": (e) => e.instance.currentTestRunDuration > 0,
    "options read back": (e) =>
      e.test.options.tags.run === "ctx" && e.test.options.scenarios.default.iterations === 6,
    "vu tags": (e) => e.vu.tags.scenario === "default" && e.vu.metrics.tags.run === undefined,
  });
}

export function teardown() {
  check(exec, { "teardown on vu 0": (e) => e.vu.idInTest === 0 });
}
