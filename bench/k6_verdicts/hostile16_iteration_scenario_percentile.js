// args:
// iteration_duration by scenario with odd percentiles over two iterations each (0.1 and 0.5 s).
import { sleep } from "k6";

export const options = {
  scenarios: {
    a: { executor: "per-vu-iterations", vus: 1, iterations: 2, exec: "a" },
  },
  thresholds: { "iteration_duration{scenario:a}": ["p(50)>200", "p(50)<450", "p(12.5)<250"] },
};

export function a() {
  sleep(__ITER === 0 ? 0.1 : 0.5);
}
