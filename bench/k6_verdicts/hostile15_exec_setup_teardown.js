// args: -u 2 -i 4
// k6/execution's fields in setup() and teardown(): the VU is 0, the test's options are read, scenario throws.
import http from "k6/http";
import { check } from "k6";
import exec from "k6/execution";

const throws = (fn) => {
  try {
    fn();
    return false;
  } catch (_) {
    return true;
  }
};

export const options = { thresholds: { checks: ["rate==1"] } };

export function setup() {
  check(null, {
    "setup vu": () => exec.vu.idInTest === 0 && exec.vu.iterationInScenario === 0,
    "setup options": () => exec.test.options.iterations === 4 && exec.test.options.vus === 2,
    "setup scenario throws": () => throws(() => exec.scenario.name),
    "setup instance": () => exec.instance.vusInitialized === 2 && exec.instance.iterationsCompleted === 0,
  });
  return { at: Date.now() };
}

export default function (data) {
  check(http.get("http://127.0.0.1:18481/get"), {
    "iteration": () => exec.scenario.name === "default" && exec.scenario.executor === "shared-iterations",
    "data": () => typeof data.at === "number",
  });
}

export function teardown() {
  check(null, {
    "teardown vu": () => exec.vu.idInTest === 0,
    "teardown options": () => exec.test.options.scenarios.default.iterations === 4,
    "teardown scenario throws": () => throws(() => exec.scenario.iterationInTest),
  });
}
