// args: -u 2 -d 1s
// env: K6_STAGES=3s:4,1s:0
// K6_STAGES in the environment, -u and -d on the command line: the flags' tier drops the stages whole, so
// k6 runs 2 VUs for a second and never 4.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { iterations: ["count>3", "count<40"] } };

export default function () {
  http.get(`${BASE}/get?vu=${__VU}`);
  sleep(0.1);
}
