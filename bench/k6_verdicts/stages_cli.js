// args: --stage 2s:3 --stage 1s:0
// The load from the command line alone: k6's stages.
import http from "k6/http";
import { check, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"], http_req_failed: ["rate==0"] } };

export default function () {
  check(http.get(`${BASE}/json`), { "json is 200": (r) => r.status === 200 });
  sleep(0.2);
}
