// args: -i 4
// A counter's rate with a 1.5 s setup and teardown: k6's test run time holds both, so the rate stays low.
import http from "k6/http";
import { sleep } from "k6";

export const options = { thresholds: { iterations: ["rate<2.5"], http_reqs: ["rate<2.5", "count==4"] } };

export function setup() {
  sleep(1.5);
}

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function teardown() {
  sleep(0.5);
}
