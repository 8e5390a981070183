// args: -u 1 -i 3
// env: K6_WEB_DASHBOARD=true K6_WEB_DASHBOARD_PORT=-1 K6_WEB_DASHBOARD_EXPORT=/tmp/loadlab-k6-verdicts-h3-dash.html
// The web dashboard turned on by CI's variables (its port off, a report exported at the end).
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { http_reqs: ["count==3"] } };

export default function () {
  check(http.get("http://127.0.0.1:18481/get"), { ok: (r) => r.status === 200 });
}
