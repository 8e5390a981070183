// args:
// k6/execution's VU and scenario fields teams log and branch on: iterationInInstance, progress, vusActive.
import http from "k6/http";
import { check } from "k6";
import exec from "k6/execution";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = {
  scenarios: { main: { executor: "per-vu-iterations", vus: 2, iterations: 3 } },
  thresholds: { checks: ["rate==1"] },
};

export default function () {
  http.get(`${BASE}/get`);
  const progress = exec.scenario.progress;
  check(exec, {
    "iteration in instance counts": (e) => e.vu.iterationInInstance >= 0 && e.vu.iterationInInstance < 3,
    "iteration in scenario counts": (e) => e.vu.iterationInScenario === __ITER,
    "progress between 0 and 1": () => progress >= 0 && progress <= 1,
    "vus active": () => exec.instance.vusActive >= 1 && exec.instance.vusActive <= 2,
    "scenario named": (e) => e.scenario.name === "main" && e.scenario.executor === "per-vu-iterations",
  });
}
