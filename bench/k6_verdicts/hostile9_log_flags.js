// args: -u 1 -i 2 --log-format=json --no-color --log-output=stderr --no-usage-report
// Logging flags a CI passes beside the load: accepted, the verdict the thresholds'.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==2"] } };

export default function () {
  console.log(JSON.stringify({ iter: __ITER }));
  check(http.get("http://127.0.0.1:18481/get"), { ok: (r) => r.status === 200 });
}
