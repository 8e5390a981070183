// args: -u 2 -i 10
// A Trend with isTime fed from res.timings, a Rate of the script's own, and a check's rate by name.
import http from "k6/http";
import { check } from "k6";
import { Rate, Trend } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const waiting = new Trend("api_waiting", true);
const ok = new Rate("api_ok");

export const options = {
  summaryTrendStats: ["avg", "min", "max", "p(95)", "count"],
  thresholds: {
    api_waiting: ["p(95)<2000", "count==10"],
    api_ok: ["rate>0.4", "rate<0.6"],
    "checks{check:validated}": ["rate<0.6"],
  },
};

export default function () {
  const id = __ITER % 2 === 0 ? "7" : "x";
  const res = http.get(`${BASE}/validate?id=${id}`);
  waiting.add(res.timings.waiting);
  ok.add(res.status === 200);
  check(res, { validated: (r) => r.status === 200 });
}
