// args: -u 4 -d 2s
// env: K6_RPS=5
// A team caps a shared environment's load with K6_RPS: every VU's requests together, at most 5 a second.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  // 2 s at 5 a second, and what the 4 VUs have under way at its end (k6 lets them finish).
  thresholds: { http_reqs: ["count<=18", "count>=8"], checks: ["rate==1"] },
};

export default function () {
  check(http.get(`${BASE}/get`), { "paced": (r) => r.status === 200 });
}
