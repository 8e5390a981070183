// args: -u 2 -i 6
// k6's documentation's custom metrics: each kind added with tags, a time Trend and a plain one, a Rate of
// booleans and numbers, thresholds on a tag's submetric of each, and metric.name read back.
import http from "k6/http";
import { check } from "k6";
import { Counter, Gauge, Rate, Trend } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const latency = new Trend("waiting_time", true);
const sizes = new Trend("payload_size");
const calls = new Counter("calls");
const lastStatus = new Gauge("last_status");
const okRate = new Rate("ok_rate");

export const options = {
  thresholds: {
    waiting_time: ["p(95)<3000"],
    "waiting_time{kind:json}": ["min>=0"],
    "payload_size{kind:json}": ["min>0"],
    "calls{kind:json}": ["count==6"],
    "calls{kind:html}": ["count==12"],
    calls: ["count==18"],
    "last_status{kind:html}": ["value==200"],
    ok_rate: ["rate==0.5"],
    "ok_rate{kind:json}": ["rate==1"],
  },
};

export default function () {
  const res = http.get(`${BASE}/get`);
  latency.add(res.timings.waiting, { kind: "json" });
  sizes.add(res.body.length, { kind: "json" });
  calls.add(1, { kind: "json" });
  okRate.add(res.status === 200, { kind: "json" });
  const page = http.get(`${BASE}/html`);
  calls.add(2, { kind: "html" });
  lastStatus.add(page.status, { kind: "html" });
  okRate.add(0, { kind: "html" });
  check(null, {
    "names": () => latency.name === "waiting_time" && calls.name === "calls" && okRate.name === "ok_rate",
  });
}
