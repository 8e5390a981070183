// args: -u 1 -i 3
// env: K6_OUT=json=/tmp/loadlab_h10_points.json
// `K6_OUT` naming a JSON output, as CI sets it in the job's environment rather than on the command line.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { http_reqs: ["count==3"], checks: ["rate==1"] } };

export default function () {
  check(http.get("http://127.0.0.1:18481/get"), { ok: (r) => r.status === 200 });
}
