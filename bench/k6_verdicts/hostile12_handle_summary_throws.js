// args: -u 1 -i 2
// A handleSummary that throws on a field it expects, over a run whose threshold failed.
import http from "k6/http";

export const options = { thresholds: { http_req_duration: ["max<0"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function handleSummary(data) {
  const ci = data.metrics.ci_only.values; // not there: a TypeError
  return { stdout: JSON.stringify(ci) };
}
