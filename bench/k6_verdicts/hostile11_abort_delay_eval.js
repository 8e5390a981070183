// args: -u 2 -d 8s
// counts: by duration
// A CI gate: abortOnFail with delayAbortEval stops the run once the delay has passed, exit 99.
import http from "k6/http";
import { check, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    http_req_duration: [{ threshold: "p(95)<0.001", abortOnFail: true, delayAbortEval: "2s" }],
    http_req_failed: [{ threshold: "rate<0.01", abortOnFail: true }],
  },
};

export default function () {
  const res = http.get(`${BASE}/get`);
  check(res, { "status is 200": (r) => r.status === 200 });
  sleep(0.2);
}
