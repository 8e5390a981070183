// args: -i 2 --no-usage-report --no-color --log-format raw --include-system-env-vars
// k6's flags of its own output and telemetry, as CI pipelines pass them: the verdict is the script's.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  check(http.get(`${BASE}/get`), { ok: (r) => r.status === 200 });
}
