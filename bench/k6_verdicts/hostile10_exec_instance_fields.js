// args: -u 2 -i 6
// k6/execution's per-instance counters: idInInstance, iterationInInstance, scenario.startTime, durations.
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==6"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
  check(exec, {
    "idInInstance is the VU": (e) => e.vu.idInInstance === e.vu.idInTest && e.vu.idInInstance === __VU,
    "iterationInInstance counts this VU's": (e) => e.vu.iterationInInstance === __ITER,
    "scenario iteration in range": (e) =>
      e.scenario.iterationInInstance >= 0 && e.scenario.iterationInInstance < 6,
    "startTime is a past epoch ms": (e) => e.scenario.startTime > 1e12 && e.scenario.startTime <= Date.now(),
    "test run duration grows": (e) => e.instance.currentTestRunDuration >= 0,
    "vus initialized": (e) => e.instance.vusInitialized === 2,
  });
}
