// args: -i 3 --no-connection-reuse --insecure-skip-tls-verify
// k6's --no-connection-reuse and --insecure-skip-tls-verify flags in a plain-HTTP test.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: { http_req_failed: ["rate==0"], http_reqs: ["count==6"] },
};

export default function () {
  http.get(`${BASE}/get`);
  http.get(`${BASE}/get?again=1`);
}
