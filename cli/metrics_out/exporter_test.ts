import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { emptyIntervalCounts } from "../../results/interval_counts.ts";
import type { IntervalDelta } from "../../results/export/interval_delta.ts";
import { encoderOf, MetricsExporter } from "./exporter.ts";
import { METRICS_OUT_KINDS, type MetricsOutKind } from "../../results/export/summary.ts";

function delta(index: number, requests: number, endEpochMs: number): IntervalDelta {
  return {
    ...emptyIntervalCounts(),
    requests,
    index,
    endEpochMs,
    errorKinds: {},
    inFlight: 0,
    connections: 0,
    histograms: [],
    late: false,
  };
}

Deno.test("exporter: the run's last, partial interval is stamped when handed on, never in the future", async () => {
  const times: bigint[] = [];
  const values: number[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    for (const rm of body.resourceMetrics) {
      for (const sm of rm.scopeMetrics) {
        for (const m of sm.metrics.filter((m: { name: string }) => m.name === "loadlab.requests")) {
          for (const p of m.sum.dataPoints) {
            times.push(BigInt(p.timeUnixNano));
            values.push(Number(p.asInt));
          }
        }
      }
    }
    return Response.json({});
  });
  try {
    const exporter = new MetricsExporter([
      { kind: "otlp-json", url: `http://127.0.0.1:${server.addr.port}/v1/metrics`, headers: {} },
    ]);
    const hooks = exporter.attackHooks();
    const pastEndMs = Date.now() - 1_000;
    hooks.onInterval(delta(0, 10, pastEndMs));
    // The graceful stop's responses: their interval's nominal end is still 200 ms away.
    const handedMs = Date.now();
    hooks.onInterval(delta(1, 2, handedMs + 200));
    const afterMs = Date.now();
    const [summary] = await exporter.close(5_000);
    assertEquals([summary.intervalsSent, summary.intervalsFailed, summary.intervalsDropped], [2, 0, 0]);
    assertEquals(values, [10, 12]);
    assertEquals(times[0], BigInt(pastEndMs) * 1_000_000n, "a whole interval keeps its end");
    const lastMs = Number(times[1] / 1_000_000n);
    ok(lastMs >= handedMs && lastMs <= afterMs, `stamped ${lastMs}, handed on in [${handedMs}, ${afterMs}]`);
  } finally {
    await server.shutdown();
  }
});

Deno.test("encoderOf: each kind its own format; a kind without an encoder is an error naming it, not remote write", () => {
  const url = "http://127.0.0.1:1/v1/metrics";
  const formats = METRICS_OUT_KINDS.map((kind) => {
    const { headers } = encoderOf({ kind, url, headers: {} })([]);
    return `${headers["content-type"]} ${headers["content-encoding"] ?? ""}`.trim();
  });
  assertEquals(formats, ["application/x-protobuf snappy", "application/x-protobuf", "application/json"]);
  const unwired = { kind: "statsd" as MetricsOutKind, url, headers: {} };
  let message = "";
  try {
    encoderOf(unwired);
  } catch (err) {
    message = (err as Error).message;
  }
  ok(message.includes('metrics output kind "statsd" has no encoder'), message);
});
