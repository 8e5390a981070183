// args: -u 2 -i 4
// exec.instance in the default function and teardown: VUs initialized, iterations completed.
import { check } from "k6";
import exec from "k6/execution";
import { sleep } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  check(exec.instance, {
    "two VUs initialized": (i) => i.vusInitialized === 2,
    "some active": (i) => i.vusActive >= 1,
    "elapsed counted": (i) => i.currentTestRunDuration >= 0,
  });
  sleep(0.05);
}

export function teardown() {
  check(exec.instance, { "four completed": (i) => i.iterationsCompleted === 4 });
}
