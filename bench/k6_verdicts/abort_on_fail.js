// args:
// abortOnFail after delayAbortEval: every request fails a status check, the test stops early (k6: 99).
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  vus: 2,
  duration: "20s",
  thresholds: {
    http_req_failed: [{ threshold: "rate<0.5", abortOnFail: true, delayAbortEval: "2s" }],
    http_req_duration: ["p(99.9)<5000"],
  },
};

export default function () {
  http.get(`${BASE}/validate`);
  sleep(0.1);
}
