// args:
// exec.scenario.iterationInTest across two VUs of shared iterations: each number once, 0 to 5.
import { Counter } from "k6/metrics";
import exec from "k6/execution";

const firstHalf = new Counter("first_half");
const seen = new Counter("iteration_sum");

export const options = {
  scenarios: { shared: { executor: "shared-iterations", vus: 2, iterations: 6 } },
  thresholds: { first_half: ["count==3"], iteration_sum: ["count==15"] },
};

export default function () {
  const n = exec.scenario.iterationInTest;
  if (n < 3) firstHalf.add(1);
  seen.add(n);
}
