// args: -i 2
// abortOnFail crossed during a 2.5 s setup(): k6 stops at its tick, no iteration, no teardown.
import http from "k6/http";
import { sleep } from "k6";

export const options = {
  thresholds: { "http_req_duration": [{ threshold: "max<100", abortOnFail: true }] },
};

export function setup() {
  http.get("http://127.0.0.1:18481/delay/0.3");
  sleep(2.5);
}

export default function () {
  http.get("http://127.0.0.1:18482/json");
}

export function teardown() {
  http.get("http://127.0.0.1:18482/json");
}
