// args: -u 1 -d 6s
// counts: by duration
// abortOnFail with delayAbortEval 1s on failures from the first request: the test stops early, 99.
import http from "k6/http";
import { sleep } from "k6";

export const options = {
  thresholds: {
    http_req_failed: [{ threshold: "rate==0", abortOnFail: true, delayAbortEval: "1s" }],
    iteration_duration: ["max<5000"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/status/500");
  sleep(0.1);
}

export function teardown() {
  http.get("http://127.0.0.1:18482/get?teardown=1");
}
