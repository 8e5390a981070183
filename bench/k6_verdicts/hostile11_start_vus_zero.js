// args:
// counts: by duration
// ramping-vus from startVUs: 0 up and back down to 0; VUs and iterations judged.
import http from "k6/http";
import { check, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    ramp: {
      executor: "ramping-vus",
      startVUs: 0,
      stages: [{ duration: "1s", target: 3 }, { duration: "1s", target: 0 }],
      gracefulRampDown: "0s",
    },
  },
  thresholds: { vus_max: ["value==3"], iterations: ["count>0"], checks: ["rate==1"] },
};

export default function () {
  check(http.get(`${BASE}/get`), { up: (r) => r.status === 200 });
  sleep(0.2);
}
