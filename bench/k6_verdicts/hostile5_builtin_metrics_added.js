// A script's own Rate named `checks` (a business rule counted as a check), a time Trend named
// `http_req_waiting` fed a server-reported time, and thresholds judging the sums, as k6 adds them.
import http from "k6/http";
import { check } from "k6";
import { Rate, Trend } from "k6/metrics";

const checks = new Rate("checks");
const waiting = new Trend("http_req_waiting", true);

export const options = {
  iterations: 4,
  thresholds: {
    checks: ["rate>0.6", "rate<0.7"],
    http_req_waiting: ["max>=4000"],
    http_req_duration: ["max<4000"],
  },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  check(res, { "200": (r) => r.status === 200, "json": (r) => r.json("url") !== undefined });
  checks.add(__ITER % 2 === 0 ? false : true);
  checks.add(false);
  waiting.add(4000 + __ITER);
}
