// args:
// per-vu-iterations: each of 2 VUs runs 5 iterations; a count threshold that fails on purpose.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    each: { executor: "per-vu-iterations", vus: 2, iterations: 5, maxDuration: "30s" },
  },
  thresholds: { http_reqs: ["count==10"], "iterations{scenario:each}": ["count>10"] },
};

export default function () {
  http.get(`${BASE}/json`);
}
