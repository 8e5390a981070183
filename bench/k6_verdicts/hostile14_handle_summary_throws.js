// args: -i 2
// handleSummary throws: k6 logs it and falls back to its own summary.
import http from "k6/http";

export const options = { thresholds: { http_reqs: ["count==2"] } };

export default function () {
  http.get("http://127.0.0.1:18482/json");
}

export function handleSummary(data) {
  if (data.metrics.http_reqs.values.count > 0) throw new Error("summary broke");
  return {};
}
