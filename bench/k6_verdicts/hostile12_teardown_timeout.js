// args: -u 1 -i 1
// teardownTimeout shorter than a teardown that waits on a slow cleanup call.
import http from "k6/http";
import { sleep } from "k6";

export const options = { teardownTimeout: "1s", thresholds: { http_reqs: ["count>=1"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function teardown() {
  sleep(3);
}
