// args: -i 2
// A script named .mjs, as some teams keep their ES modules.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==2"] } };

export default function () {
  check(http.get(`${BASE}/json`), { "json 200": (r) => r.status === 200 });
}
