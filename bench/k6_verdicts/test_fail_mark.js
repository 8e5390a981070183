// args:
// exec.test.fail() marks the test failed but lets it run on: k6 exits 110 with the thresholds judged.
import http from "k6/http";
import { check } from "k6";
import exec from "k6/execution";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = { iterations: 4, thresholds: { http_reqs: ["count==4"] } };

export default function () {
  const res = http.get(`${BASE}/status/500`);
  if (!check(res, { "is 200": (r) => r.status === 200 })) {
    exec.test.fail(`unexpected status ${res.status}`);
  }
}
