// args: --config data/tier_duration.json
// A config file's duration under the script's iterations: k6 runs the 15 iterations, unbounded by the file.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { iterations: 15, thresholds: { iterations: ["count==15"] } };

export default function () {
  http.get(`${BASE}/get`);
  sleep(0.1);
}
