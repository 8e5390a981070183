// args:
// iteration_duration by scenario: one scenario sleeps 0.5 s, the other none.
import { sleep } from "k6";

export const options = {
  scenarios: {
    slow: { executor: "per-vu-iterations", vus: 1, iterations: 2, exec: "slow" },
    fast: { executor: "per-vu-iterations", vus: 1, iterations: 2, exec: "fast" },
  },
  thresholds: {
    "iteration_duration{scenario:slow}": ["min>450"],
    "iteration_duration{scenario:fast}": ["max<400"],
    iteration_duration: ["med<1000"],
  },
};

export function slow() {
  sleep(0.5);
}

export function fast() {}
