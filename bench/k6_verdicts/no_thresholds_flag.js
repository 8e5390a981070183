// args: -i 2 --no-thresholds
// --no-thresholds: a threshold that would fail is not judged and the run exits 0, as under k6.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { http_reqs: ["count>100"], http_req_failed: ["rate<0.01"] } };

export default function () {
  http.get(`${BASE}/json`);
}
