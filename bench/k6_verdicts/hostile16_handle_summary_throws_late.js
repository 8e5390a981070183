// args: -i 2
// handleSummary throwing after reading the data: k6 prints its own summary, the exit stays the verdict's (99).
import http from "k6/http";

export const options = { thresholds: { http_reqs: ["count>10"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function handleSummary(data) {
  const n = data.metrics.http_reqs.values.count;
  throw new Error(`no summary for ${n} requests`);
}
