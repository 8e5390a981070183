// handleSummary returning several files (JSON, an XML report, a CSV line), stdout and stderr, with
// `summaryTrendStats` of `p(99.9)` read back from the data.
import http from "k6/http";

export const options = {
  iterations: 3,
  summaryTrendStats: ["avg", "p(99.9)", "max"],
  thresholds: { "http_req_duration": ["p(99.9)<5000"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function handleSummary(data) {
  const d = data.metrics.http_req_duration.values;
  if (!("p(99.9)" in d) || "p(95)" in d) throw new Error("summaryTrendStats not honoured");
  const xml = `<testsuite tests="1"><testcase name="http_req_duration"/></testsuite>`;
  return {
    "/tmp/loadlab-h5-summary.json": JSON.stringify(data),
    "/tmp/loadlab-h5-junit.xml": xml,
    "/tmp/loadlab-h5-line.csv": `reqs,${data.metrics.http_reqs.values.count}\n`,
    stdout: "summary written\n",
    stderr: "",
  };
}
