// args: --config data/h15_config.json -i 2
// summaryTrendStats from --config: handleSummary reads options.summaryTrendStats and each trend's keys.
import http from "k6/http";

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function handleSummary(data) {
  const keys = Object.keys(data.metrics.http_req_duration.values).sort().join(",");
  return { stdout: `@ stats ${data.options.summaryTrendStats.join(",")}\n@ keys ${keys}\n` };
}
