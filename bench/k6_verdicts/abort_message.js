// args: -u 2 -d 20s
// k6/execution's test.abort with a message once a login fails: k6 stops the test at once, exit 108.
import http from "k6/http";
import exec from "k6/execution";
import { check, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { http_reqs: ["count<100"] } };

export default function () {
  const res = http.get(`${BASE}/status/${exec.scenario.iterationInTest >= 5 ? 503 : 200}`);
  if (!check(res, { "up": (r) => r.status === 200 })) {
    exec.test.abort(`service down at iteration ${exec.scenario.iterationInTest}`);
  }
  sleep(0.05);
}
