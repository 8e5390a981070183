// Scenarios one after another by startTime: the first's slow iteration is cut by gracefulStop 0s (its
// count never reached), the second runs its per-VU iterations whole.
import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";

const slowDone = new Counter("slow_done");

export const options = {
  scenarios: {
    slow: { executor: "constant-vus", vus: 1, duration: "1s", gracefulStop: "0s", exec: "slow" },
    fast: {
      executor: "per-vu-iterations",
      vus: 2,
      iterations: 2,
      startTime: "1500ms",
      gracefulStop: "5s",
      exec: "fast",
    },
  },
  thresholds: {
    slow_done: ["count==0"],
    "checks{scenario:fast}": ["rate==1"],
    "http_reqs{scenario:fast}": ["count==4"],
  },
};

export function slow() {
  const res = http.get("http://127.0.0.1:18481/delay/3");
  check(res, { "slow answered": (r) => r.status === 200 });
  slowDone.add(1);
}

export function fast() {
  check(http.get("http://127.0.0.1:18481/get"), { "fast answered": (r) => r.status === 200 });
}
