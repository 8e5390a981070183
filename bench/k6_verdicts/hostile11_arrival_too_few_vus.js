// args:
// counts: by duration
// ramping-arrival-rate with too few preallocated VUs: iterations dropped, and a threshold on them fails.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    spike: {
      executor: "ramping-arrival-rate",
      startRate: 10,
      timeUnit: "1s",
      preAllocatedVUs: 1,
      maxVUs: 1,
      stages: [{ duration: "2s", target: 20 }],
    },
  },
  thresholds: {
    dropped_iterations: ["count<1"],
    "dropped_iterations{scenario:spike}": ["count>5"],
    vus_max: ["value==1"],
  },
};

export default function () {
  http.get(`${BASE}/get`);
  sleep(0.5);
}
