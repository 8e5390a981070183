// args: -u 1 -i 3
// A TypeScript script with typed custom metrics, an interface and an enum.
import http, { type RefinedResponse, type ResponseType } from "k6/http";
import { check } from "k6";
import { Rate, Trend } from "k6/metrics";

enum Path {
  Get = "/get",
  Json = "/json",
}

interface Probe {
  path: Path;
  ok: (r: RefinedResponse<ResponseType>) => boolean;
}

const took: Trend = new Trend("probe_time", true);
const good: Rate = new Rate("probe_ok");

const probes: Probe[] = [
  { path: Path.Get, ok: (r) => r.status === 200 },
  { path: Path.Json, ok: (r) => (r.json("message") as string).startsWith("Hello") },
];

export const options = {
  thresholds: { probe_ok: ["rate==1"], probe_time: ["max>=0"], checks: ["rate==1"] },
};

export default function (): void {
  for (const p of probes) {
    const res = http.get(`http://127.0.0.1:18481${p.path}`);
    took.add(res.timings.duration);
    good.add(p.ok(res));
    check(res, { [`${p.path} ok`]: p.ok });
  }
}
