// args:
// iteration_duration and group_duration thresholds per scenario and group, one scenario deliberately slow.
import http from "k6/http";
import { group, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18482";

export const options = {
  scenarios: {
    quick: {
      executor: "per-vu-iterations",
      vus: 1,
      iterations: 4,
      exec: "quick",
    },
    slow: {
      executor: "per-vu-iterations",
      vus: 1,
      iterations: 2,
      exec: "slow",
    },
  },
  thresholds: {
    "iteration_duration{scenario:quick}": ["p(95)<1000"],
    "iteration_duration{scenario:slow}": ["min>=400"],
    "group_duration{group:::cart}": ["max<1000"],
    "group_duration{group:::pay}": ["avg<300"],
  },
};

export function quick() {
  group("cart", () => http.get(`${BASE}/json`));
}

export function slow() {
  group("pay", () => {
    http.get(`${BASE}/sleep?ms=200`);
    sleep(0.25);
  });
}
