// args:
// Two scenarios of different executors, an arrival rate and ramping VUs, each judged on its own requests.
import http from "k6/http";
import { check, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    arrivals: {
      executor: "constant-arrival-rate",
      rate: 10,
      timeUnit: "1s",
      duration: "3s",
      preAllocatedVUs: 2,
      exec: "api",
    },
    ramp: {
      executor: "ramping-vus",
      startVUs: 0,
      stages: [
        { duration: "1s", target: 2 },
        { duration: "1s", target: 2 },
        { duration: "1s", target: 0 },
      ],
      exec: "browse",
    },
  },
  thresholds: {
    "http_reqs{scenario:arrivals}": ["count>=27", "count<=33"],
    "http_req_duration{scenario:ramp}": ["p(95)<2000"],
    "checks{scenario:ramp}": ["rate==1"],
    dropped_iterations: ["count<3"],
  },
};

export function api() {
  check(http.get(`${BASE}/json`), { "api is 200": (r) => r.status === 200 });
}

export function browse() {
  check(http.get(`${BASE}/`), { "home is 200": (r) => r.status === 200 });
  sleep(0.2);
}
