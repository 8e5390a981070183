// args: -u 1 -i 6
// One metric judged by several aggregations at once: p(99.9), med, avg, max; count and rate on others.
import http from "k6/http";
import { check } from "k6";
import { Rate } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const good = new Rate("good_answers");

export const options = {
  thresholds: {
    http_req_duration: ["p(99.9)<5000", "med<5000", "avg<5000", "max<10000", "min>=0"],
    http_reqs: ["count==6", "rate>0"],
    http_req_failed: ["rate==0"],
    good_answers: ["rate>=0.5", "rate<1"],
    iterations: ["count==6"],
    checks: ["rate==1"],
  },
};

export default function () {
  const res = http.get(`${BASE}/get?i=${__ITER}`);
  check(res, { ok: (r) => r.status === 200 });
  good.add(__ITER % 2 === 0);
}
