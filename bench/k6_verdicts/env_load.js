// args:
// env: K6_VUS=2 K6_ITERATIONS=6
// The load from k6's environment variables alone (K6_VUS, K6_ITERATIONS), as CI jobs set it.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { http_reqs: ["count==6"], iterations: ["count==6"] } };

export default function () {
  http.get(`${BASE}/json`);
}
