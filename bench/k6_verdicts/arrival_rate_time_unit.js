// args:
// ramping-arrival-rate in iterations a minute (timeUnit "1m"), preAllocatedVUs under maxVUs.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    orders: {
      executor: "ramping-arrival-rate",
      startRate: 300,
      timeUnit: "1m",
      preAllocatedVUs: 2,
      maxVUs: 4,
      stages: [{ duration: "2s", target: 600 }, {
        duration: "2s",
        target: 600,
      }],
    },
  },
  thresholds: {
    http_reqs: ["count>20", "count<60"],
    dropped_iterations: ["count<5"],
  },
};

export default function () {
  http.post(`${BASE}/post`, JSON.stringify({ sku: "A1" }), {
    headers: { "Content-Type": "application/json" },
  });
}
