// args: -u 1 -i 3
// handleSummary writes stdout and several files: JSON, a JUnit-like XML and a text line per metric.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const OUT = __ENV.TMPDIR || "/tmp";

export const options = { thresholds: { http_reqs: ["count==3"], checks: ["rate==1"] } };

export default function () {
  check(http.get(`${BASE}/get`), { ok: (r) => r.status === 200 });
}

export function handleSummary(data) {
  const reqs = data.metrics.http_reqs.values.count;
  const failed = Object.values(data.metrics).some((m) =>
    Object.values(m.thresholds || {}).some((t) => !t.ok)
  );
  const lines = Object.keys(data.metrics).sort().map((name) => `${name} ${data.metrics[name].type}`);
  return {
    stdout: `requests: ${reqs}\nthresholds failed: ${failed}\n`,
    [`${OUT}/h11-summary.json`]: JSON.stringify(data),
    [`${OUT}/h11-junit.xml`]: `<testsuite tests="1" failures="${failed ? 1 : 0}"></testsuite>`,
    [`${OUT}/h11-metrics.txt`]: lines.join("\n"),
  };
}
