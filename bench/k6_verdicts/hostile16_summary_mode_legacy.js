// args: -i 2 --summary-mode legacy
// --summary-mode legacy with handleSummary reading the data's trends and the checks.
import http from "k6/http";
import { check } from "k6";

export default function () {
  check(http.get("http://127.0.0.1:18481/get"), { ok: (r) => r.status === 200 });
}

export function handleSummary(data) {
  const t = data.metrics.http_req_duration.values;
  return { stdout: `@ legacy ${Object.keys(t).sort().join(",")} ${data.metrics.checks.values.passes}\n` };
}
