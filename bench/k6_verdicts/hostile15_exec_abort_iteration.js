// args: -u 2 -d 10s
// counts: by duration
// exec.test.abort() in the third iteration: 108 at once, teardown skipped, thresholds judged on what ran.
import http from "k6/http";
import { sleep } from "k6";
import exec from "k6/execution";

export const options = { thresholds: { http_reqs: ["count<20"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
  if (exec.scenario.iterationInTest === 2) exec.test.abort("enough");
  sleep(0.3);
}

export function teardown() {
  http.get("http://127.0.0.1:18482/get?teardown");
}
