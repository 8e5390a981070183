// args: -u 1 -i 2 --no-summary
// `--no-summary` beside a handleSummary that writes a report: neither the summary nor the hook runs.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==2"] } };

export default function () {
  check(http.get("http://127.0.0.1:18481/get"), { ok: (r) => r.status === 200 });
}

export function handleSummary(data) {
  return { stdout: `checks: ${data.metrics.checks.values.rate}\n` };
}
