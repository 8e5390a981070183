// ramping-arrival-rate whose preAllocatedVUs and maxVUs are too few for its rate against a slow endpoint:
// k6 warns and drops iterations; thresholds on dropped_iterations and on iterations.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    spike: {
      executor: "ramping-arrival-rate",
      startRate: 2,
      timeUnit: "1s",
      preAllocatedVUs: 1,
      maxVUs: 2,
      stages: [{ target: 10, duration: "2s" }, { target: 10, duration: "1s" }],
    },
  },
  thresholds: { dropped_iterations: ["count>0"], iterations: ["count<20"], checks: ["rate==1"] },
};

export default function () {
  check(http.get(`${BASE}/delay/0.5`), { "ok": (r) => r.status === 200 });
}
