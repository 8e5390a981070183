// args: -u 2 -i 12
// The script's own Trend and Counter added with a tag: thresholds on their submetrics, one that fails.
import http from "k6/http";
import exec from "k6/execution";
import { Counter, Trend } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const latency = new Trend("endpoint_latency", true);
const calls = new Counter("endpoint_calls");

export const options = {
  thresholds: {
    "endpoint_latency{endpoint:json}": ["p(95)<2000"],
    "endpoint_latency{endpoint:slow}": ["min>=20", "max<1"],
    "endpoint_calls{endpoint:slow}": ["count==6"],
  },
};

export default function () {
  // Every other iteration of the test, whichever VU runs it.
  const endpoint = exec.scenario.iterationInTest % 2 === 1 ? "slow" : "json";
  const res = http.get(endpoint === "slow" ? `${BASE}/sleep?ms=20` : `${BASE}/json`);
  latency.add(res.timings.duration, { endpoint });
  calls.add(1, { endpoint });
}
