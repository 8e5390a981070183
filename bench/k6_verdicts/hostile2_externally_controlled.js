// counts: by duration
// The externally-controlled executor with no one steering: its vus run for its duration.
import http from "k6/http";
import { check, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    steered: { executor: "externally-controlled", vus: 2, maxVUs: 4, duration: "2s" },
  },
  thresholds: { checks: ["rate==1"], iterations: ["count>=10", "count<=40"], vus_max: ["value==4"] },
};

export default function () {
  check(http.get(`${BASE}/get`), { "ok": (r) => r.status === 200 });
  sleep(0.2);
}
