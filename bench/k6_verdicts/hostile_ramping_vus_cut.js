// args:
// ramping-vus up and down with gracefulRampDown 0s and sleep: iterations cut at ramp-down are interrupted.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    ramp: {
      executor: "ramping-vus",
      startVUs: 0,
      stages: [{ duration: "1s", target: 3 }, { duration: "1s", target: 3 }, { duration: "1s", target: 0 }],
      gracefulRampDown: "0s",
    },
  },
  thresholds: { vus_max: ["value==3"], iterations: ["count>=5"], http_req_failed: ["rate==0"] },
};

export default function () {
  http.get(`${BASE}/get`);
  sleep(0.4);
}
