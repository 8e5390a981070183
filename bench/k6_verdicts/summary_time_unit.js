// args:
// summaryTimeUnit and summaryTrendStats in options (not flags), with thresholds in ms as always.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = {
  iterations: 5,
  summaryTimeUnit: "ms",
  summaryTrendStats: ["avg", "p(50)", "p(99)", "count"],
  thresholds: { http_req_duration: ["p(99)<3000", "avg<2000"], iteration_duration: ["p(50)<3000"] },
};

export default function () {
  http.get(`${BASE}/get`);
}
