// args: -u 3 -i 9
// k6/execution's instance and scenario counters in URLs, tags and checks: iterationInTest is unique
// across VUs, the instance's iterations never exceed the test's.
import http from "k6/http";
import { check } from "k6";
import exec from "k6/execution";

export const options = { thresholds: { checks: ["rate==1"], "http_reqs{first:yes}": ["count==1"] } };

const seen = new Set();

export default function () {
  const n = exec.scenario.iterationInTest;
  http.get(`http://127.0.0.1:18481/get?n=${n}`, { tags: { first: n === 0 ? "yes" : "no" } });
  check(null, {
    "in range": () => n >= 0 && n < 9,
    "not seen by this VU": () => !seen.has(n),
    "instance counts": () => exec.instance.iterationsCompleted <= 9 && exec.instance.vusInitialized === 3,
    "active": () => exec.instance.vusActive >= 1 && exec.instance.vusActive <= 3,
    "elapsed": () => exec.instance.currentTestRunDuration > 0,
  });
  seen.add(n);
}
