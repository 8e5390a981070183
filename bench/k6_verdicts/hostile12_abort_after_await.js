// args: -u 1 -i 5
// exec.test.abort() from an async default after an awaited request that failed a precondition.
import http from "k6/http";
import exec from "k6/execution";
import { Counter } from "k6/metrics";

const after = new Counter("after_abort");

export const options = { thresholds: { after_abort: ["count==0"], http_reqs: ["count<=3"] } };

export default async function () {
  const res = await http.asyncRequest("GET", "http://127.0.0.1:18481/status/503");
  if (res.status !== 200) exec.test.abort(`backend down: ${res.status}`);
  after.add(1);
}
