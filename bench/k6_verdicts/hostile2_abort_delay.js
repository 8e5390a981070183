// args: -u 2 -d 6s
// A threshold with abortOnFail and delayAbortEval: crossed from the first request, the test still runs
// until the delay has passed, then aborts (99) with the other thresholds judged on what ran.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    http_req_failed: [{ threshold: "rate<0.1", abortOnFail: true, delayAbortEval: "2s" }],
    http_reqs: ["count>0"],
    "http_req_duration{expected_response:true}": ["p(95)<3000"],
  },
};

export default function () {
  http.get(`${BASE}/status/${__ITER % 2 === 0 ? 500 : 200}`);
  sleep(0.25);
}
