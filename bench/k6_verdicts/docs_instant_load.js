// args:
// k6's documentation's instant load increase: ramping-arrival-rate whose stage jumps from 2 to 8
// iterations a second at once (a 0s stage), then holds; dropped iterations judged.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    contacts: {
      executor: "ramping-arrival-rate",
      preAllocatedVUs: 4,
      timeUnit: "1s",
      startRate: 2,
      stages: [
        { target: 2, duration: "1s" },
        { target: 8, duration: "0s" },
        { target: 8, duration: "2s" },
      ],
    },
  },
  thresholds: {
    iterations: ["count>=15", "count<=20"],
    dropped_iterations: ["count==0"],
    http_req_failed: ["rate==0"],
  },
};

export default function () {
  http.get(`${BASE}/get`);
}
