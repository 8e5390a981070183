// args: -u 1 -i 3
// env: K6_SUMMARY_TREND_STATS=avg,p(99),count K6_SUMMARY_TIME_UNIT=ms K6_NO_THRESHOLDS=false
// Summary stats and unit from the CI's environment, thresholds on the named percentile and count.
import http from "k6/http";

export const options = {
  thresholds: { http_req_duration: ["p(99)<5000"], "http_reqs{status:200}": ["count==3"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
