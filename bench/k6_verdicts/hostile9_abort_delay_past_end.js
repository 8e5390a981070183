// args: -u 1 -d 2s
// abortOnFail whose delayAbortEval outlasts the test: no abort, the threshold fails at the end (99).
import http from "k6/http";
import { sleep } from "k6";

export const options = {
  thresholds: {
    http_req_failed: [{ threshold: "rate==0", abortOnFail: true, delayAbortEval: "1m" }],
    iterations: ["count>=2"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/status/503");
  sleep(0.2);
}
