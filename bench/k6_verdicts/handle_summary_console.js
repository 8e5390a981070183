// args: -u 1 -i 3
// handleSummary logs with console.log, reads the thresholds' outcomes and returns only its own stdout.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { http_reqs: ["count==3"], "checks{check:ok}": ["rate==1"] } };

export default function () {
  check(http.get(`${BASE}/json`), { ok: (r) => r.status === 200 });
}

export function handleSummary(data) {
  console.log(`requests: ${data.metrics.http_reqs.values.count}`);
  const failed = Object.entries(data.metrics).filter(([, m]) =>
    Object.values(m.thresholds || {}).some((t) => !t.ok)
  );
  return { stdout: `failed thresholds: ${failed.length}\n` };
}
