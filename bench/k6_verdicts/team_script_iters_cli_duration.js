// args: -d 1s
// The script says 3 iterations, the command line a duration: k6 runs the script's VU for the duration.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { vus: 1, iterations: 3, thresholds: { iterations: ["count>3"] } };

export default function () {
  http.get(`${BASE}/get`);
  sleep(0.1);
}
