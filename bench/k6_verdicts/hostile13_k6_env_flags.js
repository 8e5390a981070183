// args:
// env: K6_ITERATIONS=3 K6_VUS=1 K6_NO_THRESHOLDS=true K6_SUMMARY_TREND_STATS=avg,p(99)
// K6_* variables for the load and for --no-thresholds: the failing threshold is not judged.
import http from "k6/http";

export const options = { vus: 5, iterations: 20, thresholds: { http_reqs: ["count>1000"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
