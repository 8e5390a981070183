// k6/execution's test options and instance counters read in VU code.
import http from "k6/http";
import { check } from "k6";
import exec from "k6/execution";

export const options = {
  scenarios: { s: { executor: "per-vu-iterations", vus: 2, iterations: 2, tags: { team: "web" } } },
  tags: { env: "staging" },
  thresholds: { checks: ["rate==1"], "http_reqs{team:web,env:staging}": ["count==4"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  const o = exec.test.options;
  check(null, {
    "scenario options": () =>
      o.scenarios.s.iterations === 2 && o.scenarios.s.executor === "per-vu-iterations",
    "test tags": () => o.tags.env === "staging",
    "thresholds seen": () => Object.keys(o.thresholds).includes("checks"),
    "executor": () => exec.scenario.executor === "per-vu-iterations",
    "vus initialized": () => exec.instance.vusInitialized === 2,

    "in scenario": () => exec.vu.iterationInScenario === __ITER,
  });
}
