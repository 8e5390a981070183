// args: -u 2 -i 6
// Checks on headers and timings, a random think time, and thresholds on the phases of a request.
import http from "k6/http";
import { check, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    http_req_waiting: ["p(99.9)<3000"],
    http_req_connecting: ["max<3000"],
    http_req_receiving: ["avg<1000"],
    http_req_blocked: ["p(95)<3000"],
    iteration_duration: ["min>0"],
    "checks{check:fast enough}": ["rate>0.9"],
  },
};

export default function () {
  const res = http.get(`${BASE}/json`, { headers: { "X-Trace": `t-${__VU}-${__ITER}` } });
  check(res, {
    "content type is json": (r) => r.headers["Content-Type"] === "application/json",
    "has content length": (r) => Number(r.headers["Content-Length"]) > 0,
    "fast enough": (r) => r.timings.duration < 2000 && r.timings.waiting >= 0,
    "timings add up": (r) => r.timings.duration >= r.timings.waiting,
  });
  sleep(Math.random() * 0.2);
}
