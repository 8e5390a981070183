// args: -u 2 -i 6
// k6/execution: each VU and iteration numbered as k6 numbers them, read into tags and checks.
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    checks: ["rate==1"],
    "http_reqs{vu_parity:odd}": ["count>0"],
    "http_reqs{first:yes}": ["count==1"],
  },
};

export default function () {
  const res = http.get(`${BASE}/get?vu=${exec.vu.idInTest}&i=${exec.scenario.iterationInTest}`, {
    tags: {
      vu_parity: exec.vu.idInTest % 2 === 1 ? "odd" : "even",
      first: exec.scenario.iterationInTest === 0 ? "yes" : "no",
    },
  });
  check(res, {
    "vu id echoed": (r) => Number(r.json("args.vu")) === exec.vu.idInTest,
    "vu ids from 1": () => exec.vu.idInTest >= 1 && exec.vu.idInTest <= 2,
    "iteration below 6": () => exec.scenario.iterationInTest < 6,
    "scenario named default": () => exec.scenario.name === "default",
    "executor": () => exec.scenario.executor === "shared-iterations",
    "vu iteration count": () => exec.vu.iterationInScenario <= exec.scenario.iterationInTest,
    "options seen": () => exec.test.options.scenarios.default.iterations === 6,
    "vus initialized": () => exec.instance.vusInitialized === 2,
    "started": () => exec.scenario.startTime > 0 && exec.instance.currentTestRunDuration >= 0,
  });
}
