// args:
// minIterationDuration paces a fast iteration: two VUs for 3 s make about 12 iterations, not thousands;
// iteration_duration is each iteration's own time, the pause left out.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  vus: 2,
  duration: "3s",
  minIterationDuration: "500ms",
  thresholds: {
    iterations: ["count>=8", "count<=14"],
    http_reqs: ["count<=14"],
    iteration_duration: ["p(95)<400"],
  },
};

export default function () {
  http.get(`${BASE}/json`);
}
