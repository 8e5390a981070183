// args: -i 2
// handleSummary writing a JSON file and stdout both, the stdout built by hand; thresholds still judged.
import http from "k6/http";

export const options = { thresholds: { http_req_failed: ["rate==0"], http_reqs: ["count>=2"] } };

export default function () {
  http.get("http://127.0.0.1:18482/json");
}

export function handleSummary(data) {
  const reqs = data.metrics.http_reqs.values.count;
  return {
    stdout: `requests: ${reqs}\nthresholds: ${JSON.stringify(data.metrics.http_reqs.thresholds)}\n`,
    [`${__ENV.TMPDIR || "/tmp"}/hostile14_summary.json`]: JSON.stringify(data, null, 2),
  };
}
