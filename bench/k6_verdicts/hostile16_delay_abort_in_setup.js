// args: -i 2
// abortOnFail with delayAbortEval 10s, failed in a 2.5 s setup(): k6 waits past setup, so the load runs (99).
import http from "k6/http";
import { sleep } from "k6";

export const options = {
  thresholds: { http_req_failed: [{ threshold: "rate==0", abortOnFail: true, delayAbortEval: "10s" }] },
};

export function setup() {
  http.get("http://127.0.0.1:18481/status/500");
  sleep(2.5);
}

export default function () {
  http.get("http://127.0.0.1:18482/json");
}
