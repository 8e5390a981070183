// args: -i 5
// summaryTrendStats in options, thresholds on stats it shows and one it does not (p(90) vs med).
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  summaryTrendStats: ["min", "max", "p(99)", "count"],
  thresholds: { http_req_duration: ["p(90)<3000", "med<3000", "count==5"] },
};

export default function () {
  http.get(`${BASE}/json`);
}
