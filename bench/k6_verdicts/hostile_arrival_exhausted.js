// args:
// constant-arrival-rate whose preAllocatedVUs run out: dropped_iterations counted, maxVUs unset.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    flood: {
      executor: "constant-arrival-rate",
      rate: 10,
      timeUnit: "1s",
      duration: "2s",
      preAllocatedVUs: 2,
    },
  },
  thresholds: { dropped_iterations: ["count>=5"], iterations: ["count<=10"], http_req_failed: ["rate==0"] },
};

export default function () {
  http.get(`${BASE}/delay/0.5`);
}
