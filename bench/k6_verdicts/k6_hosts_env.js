// args: -i 2
// env: K6_HOSTS={"api.internal":"127.0.0.1"}
// A team sets K6_HOSTS as it sets other K6_* options; k6 v1 does not read it, so its requests name the
// local server itself and the run goes on as without it.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==2"] } };

export default function () {
  check(http.get(`${BASE}/get`), { "answered": (r) => r.status === 200 });
}
