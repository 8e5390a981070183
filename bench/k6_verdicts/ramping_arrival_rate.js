// args:
// ramping-arrival-rate with preAllocatedVUs and maxVUs; a rate threshold on the iterations' own checks.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    arrivals: {
      executor: "ramping-arrival-rate",
      startRate: 2,
      timeUnit: "1s",
      preAllocatedVUs: 2,
      maxVUs: 4,
      stages: [
        { target: 6, duration: "2s" },
        { target: 0, duration: "1s" },
      ],
    },
  },
  thresholds: {
    "iterations{scenario:arrivals}": ["count>=4"],
    checks: ["rate>0.99"],
    vus_max: ["value<=4"],
  },
};

export default function () {
  const res = http.get(`${BASE}/json`);
  check(res, { "json is 200": (r) => r.status === 200 });
}
