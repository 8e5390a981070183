// args: -u 2 -d 8s
// abortOnFail on a tagged submetric (a slow endpoint's duration) with delayAbortEval: the test stops
// some seconds in, not at the first slow answer, and exits 99.
import http from "k6/http";
import { sleep } from "k6";

export const options = {
  thresholds: {
    "http_req_duration{name:slow}": [{ threshold: "p(95)<100", abortOnFail: true, delayAbortEval: "2s" }],
    http_reqs: ["count>0"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get", { tags: { name: "fast" } });
  http.get("http://127.0.0.1:18481/delay/0.3", { tags: { name: "slow" } });
  sleep(0.1);
}
