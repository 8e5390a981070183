// args: -i 5
// exec.test.abort() in setup() when a precondition fails: no iteration runs, the exit code is k6's 108.
import http from "k6/http";
import exec from "k6/execution";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { http_reqs: ["count<100"] } };

export function setup() {
  const res = http.get(`${BASE}/error/1`);
  if (res.status !== 200) exec.test.abort(`service not ready: ${res.status}`);
  return { token: "x" };
}

export default function () {
  http.get(`${BASE}/json`);
}
