// args: -i 2
// env: K6_NO_SUMMARY=true K6_TAGS=env:ci K6_QUIET=true
// k6's variables of command-line flags: K6_TAGS tags every sample, thresholds select by it.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { "http_reqs{env:ci}": ["count==2"] } };

export default function () {
  http.get(`${BASE}/json`);
}
