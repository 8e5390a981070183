/**
 * End to end: a mix's endpoints reach the metrics outputs as the `endpoint` label. `--out otlp` into a
 * receiver in this test, `--out prometheus-remote-write` into a real Prometheus queried back: each
 * endpoint's cumulative request count and latency histogram count equal its numbers in results.json.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { createTargetApp } from "../targets/app/app.ts";
import type { ResultsFile } from "../results/mod.ts";
import { requireProgram, runLoadlab, withTempDir } from "./helpers.ts";
import { metricsReceiver } from "./fixtures/metrics_receiver.ts";
import { startPrometheus } from "./fixtures/prometheus_server.ts";

const MIX = ["--mix", "GET /json 3", "--mix", "GET /sleep?ms=5 1", "-n", "400", "-c", "2", "--quiet"];

function builtinTarget() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, createTargetApp().fetch);
  return { url: `http://127.0.0.1:${server.addr.port}/`, close: () => server.shutdown() };
}

/** Every data point of metric `name` in the OTLP bodies received. */
function dataPoints(bodies: any[], name: string): any[] {
  return bodies.flatMap((b) =>
    b.resourceMetrics.flatMap((rm: any) =>
      rm.scopeMetrics.flatMap((sm: any) =>
        sm.metrics.filter((m: any) => m.name === name).flatMap((m: any) =>
          (m.sum ?? m.gauge ?? m.exponentialHistogram).dataPoints
        )
      )
    )
  );
}

/** The last point of each `endpoint` attribute's series: cumulative, so the run's totals. */
function lastByEndpoint(points: any[]): Map<string, any> {
  const out = new Map<string, any>();
  for (const p of points) {
    const endpoint = p.attributes.find((a: any) => a.key === "endpoint")?.value.stringValue;
    out.set(endpoint, p);
  }
  return out;
}

Deno.test("attack --out otlp: each endpoint is a series labelled endpoint, adding up to results.json", async () => {
  const target = builtinTarget();
  const receiver = metricsReceiver();
  try {
    await withTempDir(async (dir) => {
      const out = `${dir}/r.json`;
      const r = await runLoadlab(["attack", target.url, ...MIX, "--out", `otlp=${receiver.url}`, "-o", out]);
      assertEquals(r.code, 0, r.stderr);
      const run = (JSON.parse(await Deno.readTextFile(out)) as ResultsFile).runs[0];
      const expected = run.endpoints!.map((e) => [e.name, e.requests]).sort();
      const requests = lastByEndpoint(dataPoints(receiver.otlp, "loadlab.endpoint.requests"));
      assertEquals([...requests].map(([name, p]) => [name, Number(p.asInt)]).sort(), expected);
      const latency = lastByEndpoint(dataPoints(receiver.otlp, "loadlab.endpoint.request.duration"));
      assertEquals([...latency].map(([name, p]) => [name, Number(p.count)]).sort(), expected);
    });
  } finally {
    await receiver.close();
    await target.close();
  }
});

Deno.test("attack --out prometheus-remote-write: a real Prometheus returns each endpoint's count", async () => {
  if (!requireProgram("prometheus")) return;
  const target = builtinTarget();
  try {
    await withTempDir(async (dir) => {
      const prometheus = await startPrometheus(dir);
      try {
        const out = `${dir}/r.json`;
        const r = await runLoadlab([
          ...["attack", target.url, ...MIX, "--out", `prometheus-remote-write=${prometheus.url}`, "-o", out],
        ]);
        assertEquals(r.code, 0, r.stderr);
        const run = (JSON.parse(await Deno.readTextFile(out)) as ResultsFile).runs[0];
        const expected = run.endpoints!.map((e) => [e.name, e.requests]).sort();
        const requests = await prometheus.query(`loadlab_endpoint_requests_total{run="attack"}`);
        assertEquals(requests.map((s) => [s.metric.endpoint, Number(s.value[1])]).sort(), expected);
        const counts = await prometheus.query(
          `histogram_count(loadlab_endpoint_request_duration_seconds{run="attack"})`,
        );
        assertEquals(counts.map((s) => [s.metric.endpoint, Number(s.value[1])]).sort(), expected);
      } finally {
        await prometheus.stop();
      }
    });
  } finally {
    await target.close();
  }
});
