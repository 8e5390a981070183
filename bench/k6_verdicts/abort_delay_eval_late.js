// args: -u 1 -d 2s
// abortOnFail with a delayAbortEval longer than the test: the threshold fails at the end, no abort (99).
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    http_req_duration: [{ threshold: "p(95)<0", abortOnFail: true, delayAbortEval: "30s" }],
    iterations: ["count>=5"],
  },
};

export default function () {
  http.get(`${BASE}/get`);
  sleep(0.2);
}
