// args: -i 3
// exec.test.abort() in setup() when a precondition fails: no iteration runs, exit 108.
import http from "k6/http";
import exec from "k6/execution";

export const options = { thresholds: { http_reqs: ["count==1"] } };

export function setup() {
  const res = http.get("http://127.0.0.1:18481/status/503");
  if (res.status !== 200) exec.test.abort(`backend not ready: ${res.status}`);
}

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
