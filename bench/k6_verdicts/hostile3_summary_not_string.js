// args: -u 1 -i 2
// handleSummary returning the data object itself for a file and stdout (JSON.stringify forgotten).
import http from "k6/http";

export const options = { thresholds: { http_reqs: ["count==2"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function handleSummary(data) {
  return { "/tmp/loadlab-k6-verdicts-h3-summary.json": data, stdout: data.metrics.http_reqs.values.count };
}
