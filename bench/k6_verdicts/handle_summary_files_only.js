// args: -i 3
// handleSummary returns only files (no stdout), with a failing threshold the exit code still reports.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: { http_req_duration: ["p(95)<0"], http_reqs: ["count==3"] },
};

export default function () {
  http.get(`${BASE}/json`);
}

export function handleSummary(data) {
  return {
    [`${__ENV.TMPDIR || "/tmp"}/k6-files-only-summary.json`]: JSON.stringify(
      data.metrics.http_reqs,
    ),
  };
}
