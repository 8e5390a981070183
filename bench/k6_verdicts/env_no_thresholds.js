// args: -i 3
// env: K6_NO_THRESHOLDS=true
// A CI job that only wants numbers sets K6_NO_THRESHOLDS: a threshold that would fail is not judged, exit 0.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { http_req_duration: ["max<0"], http_reqs: ["count==999"] } };

export default function () {
  http.get(`${BASE}/json`);
}
