// args: -i 4
// Thresholds on percentiles no summary column shows (p(33), p(99.99)) over four samples.
import http from "k6/http";

export const options = {
  summaryTrendStats: ["avg"],
  thresholds: { http_req_duration: ["p(33)<5000", "p(99.99)<5000"], iteration_duration: ["p(66.6)<5000"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function handleSummary(data) {
  const v = data.metrics.http_req_duration.values;
  return { stdout: `@ shown ${Object.keys(v).sort().join(",")}\n` };
}
