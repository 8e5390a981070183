// args: --config data/tier_iterations.json
// A config file's iterations under the script's duration: the script's tier replaces the file's execution
// settings, so k6 runs for the second and not 3 iterations.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { duration: "1s", thresholds: { iterations: ["count>3"] } };

export default function () {
  http.get(`${BASE}/get`);
  sleep(0.1);
}
