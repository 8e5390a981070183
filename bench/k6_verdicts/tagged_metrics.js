// args: -u 2 -i 10
// Counter, Rate, Trend and Gauge with tags, thresholds on their tagged submetrics (one that fails).
import http from "k6/http";
import { Counter, Gauge, Rate, Trend } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const pages = new Counter("pages");
const fast = new Rate("fast");
const size = new Trend("body_size");
const last = new Gauge("last_status");

export const options = {
  thresholds: {
    "pages{kind:json}": ["count==10"],
    "pages{kind:text}": ["count>=10"],
    "fast{kind:json}": ["rate>0.9"],
    "body_size{kind:text}": ["max<100", "min>0"],
    "last_status": ["value==200"],
    "body_size{kind:json}": ["avg<5"],
  },
};

export default function () {
  for (const [kind, path] of [["json", "/json"], ["text", "/"]]) {
    const res = http.get(`${BASE}${path}`);
    pages.add(1, { kind });
    fast.add(res.timings.duration < 2000, { kind });
    size.add(res.body.length, { kind });
    last.add(res.status);
  }
}
