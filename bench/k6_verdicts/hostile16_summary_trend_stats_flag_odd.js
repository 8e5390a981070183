// args: -i 3 --summary-trend-stats p(0),p(100),count,med
// --summary-trend-stats with odd percentiles: handleSummary's data holds exactly them.
import http from "k6/http";

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function handleSummary(data) {
  const v = data.metrics.http_req_duration.values;
  return {
    stdout: `@ stats ${Object.keys(v).sort().join(",")} ${v.count} ${
      data.options.summaryTrendStats.join("|")
    }\n`,
  };
}
