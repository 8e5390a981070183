// args:
// shared-iterations beside constant-arrival-rate: the arrival rate runs every iteration its VUs serve.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    shared: { executor: "shared-iterations", vus: 2, iterations: 6, exec: "browse", maxDuration: "10s" },
    rate: {
      executor: "constant-arrival-rate",
      rate: 4,
      timeUnit: "1s",
      duration: "2s",
      preAllocatedVUs: 2,
      exec: "api",
    },
  },
  thresholds: {
    "iterations{scenario:shared}": ["count==6"],
    "iterations{scenario:rate}": ["count>=7", "count<=9"],
    dropped_iterations: ["count<=1"],
  },
};

export function browse() {
  http.get(`${BASE}/get`);
}

export function api() {
  http.get(`${BASE}/get`);
  sleep(0.25);
}
