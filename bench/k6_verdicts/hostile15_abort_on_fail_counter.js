// args: -u 1 -d 10s
// counts: by duration
// abortOnFail on a custom counter crossed in the first iteration: the test stops, exit 99, teardown runs.
import http from "k6/http";
import { sleep } from "k6";
import { Counter } from "k6/metrics";

const errors = new Counter("errors");

export const options = { thresholds: { errors: [{ threshold: "count<1", abortOnFail: true }] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
  errors.add(1);
  sleep(0.2);
}

export function teardown() {
  http.get("http://127.0.0.1:18482/get?teardown");
}
