// args:
// ramping-vus ramping down under iterations longer than a stage: gracefulRampDown lets them finish.
import http from "k6/http";
import { sleep } from "k6";
import { Counter } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const done = new Counter("done");

export const options = {
  scenarios: {
    ramp: {
      executor: "ramping-vus",
      startVUs: 2,
      stages: [{ duration: "500ms", target: 2 }, { duration: "500ms", target: 0 }],
      gracefulRampDown: "3s",
    },
  },
  thresholds: { done: ["count==2"], iterations: ["count==2"], vus_max: ["value==2"] },
};

export default function () {
  http.get(`${BASE}/get`);
  sleep(1.5);
  done.add(1);
}
