// args: -u 1 -i 3
// exec.test.abort() in setup() when a precondition fails: k6 exits 108, no iteration runs.
import http from "k6/http";
import exec from "k6/execution";

export const options = { thresholds: { iterations: ["count==0"] } };

export function setup() {
  const res = http.get("http://127.0.0.1:18481/status/503");
  if (res.status !== 200) exec.test.abort(`service not ready: ${res.status}`);
}

export default function () {
  http.get("http://127.0.0.1:18482/get");
}
