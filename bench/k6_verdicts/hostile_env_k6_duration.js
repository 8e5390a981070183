// env: K6_DURATION=2s K6_VUS=2
// args:
// K6_DURATION and K6_VUS with a script that names no load: a 2 s run of 2 VUs.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { vus_max: ["value==2"], iterations: ["count>=4", "count<=10"] } };

export default function () {
  http.get(`${BASE}/get`);
  sleep(0.5);
}
