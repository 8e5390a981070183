// args: -i 5
// A latency threshold no server meets: k6 exits 99.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: { http_req_duration: ["p(95)<1"], http_reqs: ["count==5"] },
};

export default function () {
  http.get(`${BASE}/sleep?ms=20`);
}
