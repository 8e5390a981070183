// args: -u 1 -i 3 --log-output=file=/tmp/loadlab-k6-verdicts-h3.log --log-format=json
// k6's log sent to a file as JSON lines, as a CI job keeps its console for the summary.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  console.log(`status ${res.status}`);
  check(res, { ok: (r) => r.status === 200 });
}
