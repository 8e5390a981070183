// args:
// Iterations longer than the scenario: a gracefulStop of 4s lets them end, one of 0s interrupts them.
import http from "k6/http";
import { sleep } from "k6";
import { Counter } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const finished = new Counter("finished");

export const options = {
  scenarios: {
    patient: { executor: "constant-vus", vus: 1, duration: "1s", gracefulStop: "4s" },
    strict: { executor: "constant-vus", vus: 1, duration: "1s", gracefulStop: "0s" },
  },
  thresholds: {
    "finished{scenario:patient}": ["count==1"],
    "finished{scenario:strict}": ["count==0"],
    "http_reqs{scenario:strict}": ["count==1"],
  },
};

export default function () {
  http.get(`${BASE}/get`);
  sleep(2.5);
  finished.add(1);
}
