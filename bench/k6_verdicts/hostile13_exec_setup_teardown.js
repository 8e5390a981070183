// args: -u 1 -i 2
// k6/execution read in setup() and teardown(): the scenario's name throws there, the test's options do not.
import http from "k6/http";
import { check } from "k6";
import exec from "k6/execution";

export const options = { thresholds: { checks: ["rate==1"], iterations: ["count==2"] } };

export function setup() {
  let scenarioThrew = false;
  try {
    exec.scenario.name;
  } catch (_e) {
    scenarioThrew = true;
  }
  check(exec, {
    "setup: scenario throws": () => scenarioThrew,
    "setup: options read": (e) => e.test.options.iterations === 2,
  });
  return { started: Date.now() };
}

export default function (data) {
  http.get("http://127.0.0.1:18481/get");
  check(data, { "data kept": (d) => d.started > 0 });
}

export function teardown() {
  check(exec, { "teardown: vu id 0": (e) => e.vu.idInTest === 0 });
}
