// args: -u 1 -d 1s
// env: K6_ITERATIONS=3
// K6_ITERATIONS in the environment, --duration on the command line: the flags' tier replaces the variables'
// execution settings whole, so k6 runs one VU for a second and the 3 iterations are gone.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { iterations: ["count>3"] } };

export default function () {
  http.get(`${BASE}/get`);
  sleep(0.1);
}
