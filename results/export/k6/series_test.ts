import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { k6NamedSamples } from "./series.ts";

Deno.test("k6 metrics take the names k6's Prometheus and OpenTelemetry outputs give them", () => {
  const samples = k6NamedSamples({
    http_reqs: { type: "counter", contains: "default", values: { count: 12, rate: 6 } },
    vus: { type: "gauge", contains: "default", values: { value: 2, min: 2, max: 2 } },
    checks: { type: "rate", contains: "default", values: { rate: 0.75, passes: 3, fails: 1 } },
    http_req_duration: { type: "trend", contains: "time", values: { avg: 2, "p(99.9)": 40 } },
    "http_req_duration{name:me}": { type: "trend", contains: "time", values: { avg: 1 } },
  });
  assertEquals(samples.map((s) => [s.prom ?? "-", s.otlp ?? "-", s.type, s.value, s.labels]), [
    ["k6_http_reqs_total", "k6_http_reqs", "counter", 12, {}],
    ["k6_vus", "k6_vus", "gauge", 2, {}],
    ["k6_checks_rate", "-", "gauge", 0.75, {}],
    ["-", "k6_checks", "counter", 3, { condition: "nonzero" }],
    ["-", "k6_checks", "counter", 1, { condition: "zero" }],
    ["k6_http_req_duration_avg", "k6_http_req_duration_avg", "gauge", 0.002, {}],
    ["k6_http_req_duration_p999", "k6_http_req_duration_p999", "gauge", 0.04, {}],
  ]);
});
