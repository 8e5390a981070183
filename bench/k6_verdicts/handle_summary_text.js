// args: -i 3
// handleSummary writing its own text to stdout and the data as JSON to a file; thresholds still judged.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: { http_req_failed: ["rate==0"], "http_reqs{status:200}": ["count==3"] },
};

export default function () {
  check(http.get(`${BASE}/json`), { "is 200": (r) => r.status === 200 });
}

export function handleSummary(data) {
  const reqs = data.metrics.http_reqs.values.count;
  const failed = data.metrics.http_req_failed.values.rate;
  return {
    stdout: `requests: ${reqs}, failed: ${(failed * 100).toFixed(1)}%\n`,
    "summary_data.json": JSON.stringify({ reqs, failed, checks: data.root_group.checks.length }),
  };
}
