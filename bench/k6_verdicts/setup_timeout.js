// args:
// setup() waits on a slow dependency past setupTimeout: k6 ends the test (exit 100), its summary written.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  setupTimeout: "1s",
  vus: 1,
  iterations: 3,
  thresholds: { iterations: ["count==0"], http_reqs: ["count<2"] },
};

export function setup() {
  http.get(`${BASE}/user?delayMs=3000`, { timeout: "5s" });
}

export default function () {
  http.get(`${BASE}/json`);
}
