// args: -u 2 -i 10
// The script's own Trend and Rate, each with a threshold that holds.
import http from "k6/http";
import { Rate, Trend } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const waiting = new Trend("waiting_time", true);
const okRate = new Rate("ok_rate");

export const options = {
  thresholds: { waiting_time: ["p(95)<2000"], ok_rate: ["rate>0.9"] },
};

export default function () {
  const res = http.get(`${BASE}/json`);
  waiting.add(res.timings.waiting);
  okRate.add(res.status === 200);
}
