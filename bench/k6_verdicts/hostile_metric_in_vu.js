// args: -i 1
// A custom metric made in the default function: k6 throws (metrics belong to the init context).
import http from "k6/http";
import { Trend } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { iterations: ["count==1"] } };

export default function () {
  const t = new Trend("late_trend");
  t.add(http.get(`${BASE}/get`).timings.duration);
}
