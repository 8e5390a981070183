// args: -u 1 -i 3
// handleSummary writing a hand-built JUnit XML and the JSON data to files, and a line to stdout.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { http_req_failed: ["rate<0.5"], checks: ["rate>0.5"] } };

export default function () {
  check(http.get("http://127.0.0.1:18481/status/200"), { ok: (r) => r.status === 200 });
}

export function handleSummary(data) {
  const cases = [];
  for (const [name, m] of Object.entries(data.metrics)) {
    for (const [rule, t] of Object.entries(m.thresholds || {})) {
      cases.push(`<testcase name="${name} ${rule}">${t.ok ? "" : "<failure/>"}</testcase>`);
    }
  }
  const xml = `<?xml version="1.0"?>\n<testsuite name="k6" tests="${cases.length}">${
    cases.join("")
  }</testsuite>\n`;
  return {
    "/tmp/h8_junit.xml": xml,
    "/tmp/h8_summary.json": JSON.stringify(data),
    stdout: `thresholds: ${cases.length}, reqs: ${data.metrics.http_reqs.values.count}\n`,
  };
}
