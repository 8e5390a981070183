// args: -u 2 -d 10s
// counts: by duration
// A gate on checks: abortOnFail stops the test at the first evaluation where too many checks failed.
import http from "k6/http";
import { check, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    checks: [{ threshold: "rate>0.9", abortOnFail: true }],
    http_req_duration: ["p(95)<10000"],
  },
};

export default function () {
  const res = http.get(`${BASE}/status/${__ITER % 3 === 0 ? 200 : 500}`);
  check(res, { "status 200": (r) => r.status === 200 });
  sleep(0.1);
}
