// args: -u 1 -i 3
// setup() checks the service's health and throws when it is down: no iteration runs, k6's exit 107.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { http_reqs: ["count==1"] } };

export function setup() {
  const res = http.get(`${BASE}/status/503`);
  if (res.status !== 200) {
    throw new Error(`health check failed: ${res.status}`);
  }
  return { ok: true };
}

export default function () {
  http.get(`${BASE}/get`);
}
