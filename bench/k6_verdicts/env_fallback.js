// args: -u 2 -i 20 -e BASE_URL=http://127.0.0.1:18482
// The commonest idiom: a fallback URL in the script, the real one from -e.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: { http_req_failed: ["rate<0.01"], checks: ["rate>0.99"] },
};

export default function () {
  const res = http.get(`${BASE}/json`);
  check(res, { "status is 200": (r) => r.status === 200 });
}
