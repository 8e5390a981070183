// args:
// k6/execution's clocks as teams log them: a scenario's startTime offset and the run's duration so far.
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";

export const options = {
  scenarios: {
    late: { executor: "per-vu-iterations", vus: 1, iterations: 2, startTime: "1s" },
  },
  thresholds: { checks: ["rate==1"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  check(exec, {
    "scenario started about 1 s in": (e) => e.scenario.startTime >= 900,
    "run clock past the offset": (e) => e.instance.currentTestRunDuration >= 1000,
    "progress between 0 and 1": (e) => e.scenario.progress >= 0 && e.scenario.progress <= 1,
  });
}
