// args: -i 2 -o json=/tmp/loadlab-k6-verdicts-hostile.ndjson --out web-dashboard --out experimental-prometheus-rw
// k6's output spellings teams pass: -o for --out, the web dashboard, Prometheus remote write.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  check(http.get(`${BASE}/get`), { "200": (r) => r.status === 200 });
}
