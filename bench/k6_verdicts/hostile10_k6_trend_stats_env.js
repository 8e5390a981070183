// args: -u 1 -i 3
// env: K6_SUMMARY_TREND_STATS=avg,p(90),p(99.9),count K6_SUMMARY_TIME_UNIT=ms
// Summary trend stats and time unit from k6's variables, with rules on the columns named.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    http_req_duration: ["p(90)<10000", "p(99.9)<10000"],
    http_reqs: ["count==3"],
    checks: ["rate==1"],
  },
};

export default function () {
  check(http.get("http://127.0.0.1:18481/get"), { ok: (r) => r.status === 200 });
}

export function handleSummary(data) {
  const d = data.metrics.http_req_duration.values;
  const keys = Object.keys(d).sort().join(",");
  return { stdout: `${keys}\n`, "/tmp/loadlab_h10_stats.txt": keys };
}
