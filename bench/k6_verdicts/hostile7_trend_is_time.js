// args: -i 4
// Trends with isTime and without, fed timings and sizes; thresholds on med, p(90), avg and count.
import http from "k6/http";
import { Trend } from "k6/metrics";

const waiting = new Trend("ttfb_ms", true);
const size = new Trend("body_bytes");

export const options = {
  thresholds: {
    ttfb_ms: ["med<30000", "p(90)<30000", "max<30000"],
    body_bytes: ["avg>100", "min>100", "max<100000"],
    "ttfb_ms{page:first}": ["max<30000"],
  },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/bytes/512");
  waiting.add(res.timings.waiting, __ITER === 0 ? { page: "first" } : {});
  size.add(res.body.length);
}
