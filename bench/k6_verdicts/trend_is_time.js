// args: --summary-trend-stats avg,min,med,max,p(90),p(99.9)
// A Trend of times (isTime) judged by p(99.9) with k6's --summary-trend-stats, beside one of plain numbers.
import http from "k6/http";
import { Trend } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const ttfb = new Trend("ttfb", true);
const size = new Trend("body_size");

export const options = {
  iterations: 10,
  thresholds: {
    ttfb: ["p(99.9)<3000", "avg<2000"],
    body_size: ["min>10", "p(99.9)<100000", "med>0"],
    http_req_duration: ["p(99.9)<3000"],
  },
};

export default function () {
  const res = http.get(`${BASE}/json`);
  ttfb.add(res.timings.waiting);
  size.add(res.body.length);
}
