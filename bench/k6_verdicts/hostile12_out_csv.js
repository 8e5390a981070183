// args: -u 1 -i 2 --out csv=/tmp/loadlab-h12-out.csv
// --out csv= beside the summary: the run's verdict unchanged by the output.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { http_reqs: ["count==2"], checks: ["rate==1"] } };

export default function () {
  check(http.get("http://127.0.0.1:18481/get"), { ok: (r) => r.status === 200 });
}
