// args:
// ramping-arrival-rate past what its VUs can serve: iterations dropped, judged by dropped_iterations.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    spike: {
      executor: "ramping-arrival-rate",
      startRate: 5,
      timeUnit: "1s",
      preAllocatedVUs: 1,
      maxVUs: 2,
      stages: [{ target: 20, duration: "2s" }, { target: 20, duration: "1s" }],
    },
  },
  thresholds: { dropped_iterations: ["count>5"], http_req_failed: ["rate==0"] },
};

export default function () {
  http.get(`${BASE}/sleep?ms=300`);
}
