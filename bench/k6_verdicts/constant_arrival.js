// args:
// constant-arrival-rate with VUs to spare: no iteration dropped, the rate's count held.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    steady: {
      executor: "constant-arrival-rate",
      rate: 20,
      timeUnit: "1s",
      duration: "2s",
      preAllocatedVUs: 4,
      maxVUs: 8,
    },
  },
  thresholds: {
    dropped_iterations: ["count==0"],
    iterations: ["count>=36", "count<=42"],
    checks: ["rate==1"],
  },
};

export default function () {
  check(http.get(`${BASE}/json`), { "json is 200": (r) => r.status === 200 });
}
