// args: -i 2
// A threshold of `max` on a Gauge: k6 judges a gauge by `value` only and refuses the config (104).
import http from "k6/http";
import { Gauge } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const size = new Gauge("size");

export const options = { thresholds: { size: ["max>0"] } };

export default function () {
  size.add(http.get(`${BASE}/bytes/100`).body.length);
}
