// args: -i 3
// handleSummary writing several files (JSON, a text of its own, a CSV line) and stdout; the thresholds
// still decide the exit code.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const OUT = __ENV.SUMMARY_DIR || "/tmp";

export const options = { thresholds: { http_reqs: ["count==3"], checks: ["rate==1"] } };

export default function () {
  check(http.get(`${BASE}/get`), { "ok": (r) => r.status === 200 });
}

export function handleSummary(data) {
  const reqs = data.metrics.http_reqs.values.count;
  const p95 = data.metrics.http_req_duration.values["p(95)"];
  const passed = data.metrics.checks.values.passes;
  return {
    stdout: `requests=${reqs} checks=${passed} ok=${data.metrics.http_reqs.thresholds["count==3"].ok}\n`,
    [`${OUT}/k6trial-summary.json`]: JSON.stringify(data),
    [`${OUT}/k6trial-summary.csv`]: `requests,p95\n${reqs},${p95}\n`,
    [`${OUT}/k6trial-summary.txt`]: `state: ${
      data.state.testRunDurationMs > 0
    } vus_max ${data.metrics.vus_max.values.value}\n`,
  };
}
