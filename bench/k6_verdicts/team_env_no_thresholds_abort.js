// args: -i 3
// env: K6_NO_THRESHOLDS=true
// K6_NO_THRESHOLDS beside an abortOnFail threshold that would fail: nothing is judged, no abort, exit 0.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: { http_reqs: [{ threshold: "count<1", abortOnFail: true }] },
};

export default function () {
  http.get(`${BASE}/get`);
}
