// args:
// ramping-vus from 1 to 3 and back with gracefulRampDown; thresholds on the vus gauges and iterations.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    ramp: {
      executor: "ramping-vus",
      startVUs: 1,
      stages: [
        { duration: "1s", target: 3 },
        { duration: "1s", target: 3 },
        { duration: "1s", target: 0 },
      ],
      gracefulRampDown: "2s",
    },
  },
  thresholds: {
    vus: ["value<=3"],
    vus_max: ["value==3"],
    iterations: ["count>5"],
    "http_req_duration{scenario:ramp}": ["p(90)<3000", "avg<2000"],
  },
};

export default function () {
  http.get(`${BASE}/json`);
  sleep(0.2);
}
