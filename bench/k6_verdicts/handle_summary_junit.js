// args:
// handleSummary writes a JUnit XML and a JSON file from the thresholds, and its own stdout line.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = {
  iterations: 3,
  thresholds: { http_req_duration: ["p(95)<3000"], checks: ["rate>0.99"], http_reqs: ["count>100"] },
};

export default function () {
  check(http.get(`${BASE}/get`), { "is 200": (r) => r.status === 200 });
}

function junit(data) {
  const cases = [];
  let failures = 0;
  for (const [name, metric] of Object.entries(data.metrics)) {
    for (const [rule, outcome] of Object.entries(metric.thresholds || {})) {
      if (!outcome.ok) failures++;
      const failure = outcome.ok ? "" : `<failure message="${rule} crossed"/>`;
      cases.push(`<testcase name="${name} ${rule}">${failure}</testcase>`);
    }
  }
  return `<?xml version="1.0"?>\n<testsuites><testsuite name="k6" tests="${cases.length}" failures="${failures}">` +
    cases.join("") + "</testsuite></testsuites>\n";
}

export function handleSummary(data) {
  return {
    "/tmp/loadlab-k6-verdicts-junit.xml": junit(data),
    "/tmp/loadlab-k6-verdicts-summary.json": JSON.stringify({
      checks: data.metrics.checks.values,
      reqs: data.metrics.http_reqs.values,
    }),
    stdout: `requests: ${data.metrics.http_reqs.values.count}\n`,
  };
}
