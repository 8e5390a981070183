// args:
// Threshold objects: abortOnFail with delayAbortEval stops a 20 s test once the delay passed; a plain
// object threshold beside it; each VU paced at 10 iterations a second.
import http from "k6/http";
import { check, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  vus: 2,
  duration: "20s",
  thresholds: {
    http_req_failed: [{
      threshold: "rate<0.1",
      abortOnFail: true,
      delayAbortEval: "3s",
    }],
    http_req_duration: [{ threshold: "p(95)<5000" }, "avg<5000"],
  },
};

export default function () {
  const res = http.get(`${BASE}/missing/${__ITER % 3}`);
  check(res, { "found": (r) => r.status === 200 });
  sleep(0.1);
}
