// args:
// env: K6_STAGES=1s:2,1s:0
// The ramp from K6_STAGES in the CI's environment over a script with none.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = { thresholds: { vus_max: ["value==2"], http_reqs: ["count>=3"] } };

export default function () {
  http.get(`${BASE}/get`);
  sleep(0.3);
}
