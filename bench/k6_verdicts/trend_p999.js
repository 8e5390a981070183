// args: -u 2 -i 20
// A custom Trend with isTime, thresholds on p(99.9), med and max, and a counter of slow calls.
import http from "k6/http";
import { Counter, Trend } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const serverTime = new Trend("server_time", true);
const slow = new Counter("slow_calls");

export const options = {
  thresholds: {
    server_time: ["p(99.9)<5000", "med<3000", "max>=0"],
    slow_calls: ["count<1"],
    http_req_waiting: ["p(99.9)<5000"],
  },
};

export default function () {
  const res = http.get(`${BASE}/json`);
  serverTime.add(res.timings.waiting, { kind: "json" });
  if (res.timings.duration > 4000) slow.add(1);
}
