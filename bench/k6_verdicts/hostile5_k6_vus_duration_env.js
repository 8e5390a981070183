// env: K6_VUS=2 K6_DURATION=2s K6_SUMMARY_TREND_STATS=avg,p(99.9),count
// The load given only by K6_VUS and K6_DURATION, the summary's stats by K6_SUMMARY_TREND_STATS, the
// thresholds naming a stat only that list makes (`p(99.9)`) and counting VUs.
import http from "k6/http";
import { sleep } from "k6";

export const options = {
  thresholds: {
    vus_max: ["value==2"],
    http_req_duration: ["p(99.9)<3000"],
    iterations: ["count>2"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  sleep(0.5);
}
