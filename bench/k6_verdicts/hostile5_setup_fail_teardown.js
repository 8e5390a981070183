// `fail()` in setup() after a request: k6 stops the test there (no iteration, no teardown) and exits
// with its script error's code, the thresholds not judged.
import http from "k6/http";
import { fail } from "k6";

export const options = { iterations: 2, thresholds: { http_reqs: ["count==1"] } };

export function setup() {
  const res = http.get("http://127.0.0.1:18481/status/503");
  if (res.status !== 200) fail(`health check answered ${res.status}`);
  return { ok: true };
}

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function teardown() {
  http.get("http://127.0.0.1:18482/get?teardown=1");
}
