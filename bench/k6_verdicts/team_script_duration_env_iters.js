// env: K6_ITERATIONS=15
// The script's duration and K6_ITERATIONS: the variables' tier replaces the script's, 15 iterations run.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { vus: 1, duration: "1s", thresholds: { iterations: ["count==15"] } };

export default function () {
  http.get(`${BASE}/get`);
  sleep(0.1);
}
