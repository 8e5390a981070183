// args: -i 2
// handleSummary's data: which metrics it holds, each one's type, contains and value keys.
import http from "k6/http";
import { check } from "k6";
import { Counter, Gauge } from "k6/metrics";

const items = new Counter("items");
const depth = new Gauge("depth");

export const options = { thresholds: { items: ["count==4"] } };

export default function () {
  check(http.get("http://127.0.0.1:18481/get"), { "ok": (r) => r.status === 200 });
  items.add(2);
  depth.add(3);
}

export function handleSummary(data) {
  const lines = [
    "checks",
    "http_reqs",
    "http_req_duration",
    "http_req_failed",
    "iterations",
    "items",
    "depth",
    "vus",
    "vus_max",
    "data_received",
    "iteration_duration",
  ].map((name) => {
    const m = data.metrics[name];
    return m === undefined
      ? `@ ${name} absent`
      : `@ ${name} ${m.type} ${m.contains} ${Object.keys(m.values).sort().join(",")}`;
  });
  const sub = Object.keys(data.metrics).filter((k) => k.includes("{")).sort().join(",");
  return { stdout: `${lines.join("\n")}\n@ submetrics ${sub}\n@ items ${data.metrics.items.values.count}\n` };
}
