// args:
// Thresholds on gauges: the built-in vus and vus_max, and a Gauge the script sets (its last value).
import http from "k6/http";
import exec from "k6/execution";
import { Gauge } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const queue = new Gauge("queue_depth");

export const options = {
  vus: 3,
  iterations: 9,
  thresholds: {
    vus_max: ["value==3"],
    vus: ["value<=3"],
    queue_depth: ["value>=1", "value<=9"],
  },
};

export default function () {
  http.get(`${BASE}/json`);
  queue.add(exec.scenario.iterationInTest + 1);
}
