// args: -i 3 --out json=/tmp/loadlab-k6-verdicts-points.json
// A team's CI line keeps k6's NDJSON points beside the summary: `--out json=FILE` is accepted and the
// verdict is the script's.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { http_req_failed: ["rate==0"], checks: ["rate==1"] } };

export default function () {
  check(http.get(`${BASE}/json`), { "json ok": (r) => r.status === 200 });
}
