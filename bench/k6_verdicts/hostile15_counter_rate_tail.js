// args: -u 2 -d 1s
// A counter's rate over k6's test run time: 2 VUs sleeping 0.8 s before each GET run past the 1 s.
import http from "k6/http";
import { sleep } from "k6";
import { Counter } from "k6/metrics";

const sent = new Counter("sent");

export const options = { thresholds: { http_reqs: ["rate<3"], sent: ["rate<3", "count==4"] } };

export default function () {
  sleep(0.8);
  http.get("http://127.0.0.1:18481/get");
  sent.add(1);
}
