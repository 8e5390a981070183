// args: -u 2 -i 4
// env: K6_DURATION=30s K6_VUS=5
// The command line's -u and -i outrank K6_VUS and K6_DURATION: 2 VUs share 4 iterations, no 30s hold.
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";

export const options = {
  thresholds: {
    iterations: ["count==4"],
    checks: ["rate==1"],

    "http_reqs{executor:shared-iterations}": ["count==4"],
  },
};

export default function () {
  http.get(`http://127.0.0.1:18481/get?i=${exec.scenario.iterationInTest}`, {
    tags: { executor: exec.test.options.scenarios.default.executor },
  });
  check(exec.instance, { "2 VUs": (i) => i.vusInitialized === 2 });
}
