/**
 * A k6 script's metrics under k6's own names in the metrics outputs, and k6's modules imported by name:
 * `loadlab run named_imports.js` (tests/fixtures/k6; `check`, `group`, `sleep`, `file`, `CookieJar`,
 * `Counter`... imported as k6's docs write them) against the built-in target, with `--out otlp=URL`
 * (protobuf) into the local receiver (tests/fixtures/metrics_receiver.ts) and
 * `--out prometheus-remote-write=URL` into a real Prometheus (skipped with the reason where it is not
 * installed), queried back by the names k6's outputs give them: `k6_http_reqs_total`, `k6_iterations_total`,
 * `k6_checks_rate`, `k6_vus`, a trend's
 * `k6_http_req_duration_p99` and the script's own counter, trend and rate. Loads are 6 iterations.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { ResultsFile } from "../results/mod.ts";
import { requireProgram, withTarget } from "./helpers.ts";
import { runK6Fixture } from "./k6_run.ts";
import { dataPoints, metricsReceiver } from "./fixtures/metrics_receiver.ts";
import { startPrometheus } from "./fixtures/prometheus_server.ts";
import { decodeHistogram, k6QuantileUs } from "../results/histogram.ts";
import { k6RunSec } from "../results/thresholds/threshold.ts";

/** `loadlab run` of the fixture against `url` with `outs`; its results. */
async function runScript(url: string, outs: string[]): Promise<ResultsFile> {
  const { code, text, results }: { code: number; text: string; results: ResultsFile } = await runK6Fixture(
    "named_imports.js",
    url,
    outs.flatMap((o) => ["--out", o]),
  );
  assertEquals(code, 0, text);
  const checks = results.runs[0].flows![0].steps.flatMap((s) => s.checks ?? []);
  ok(checks.length === 7 && checks.every((c) => c.passed === 6 && c.failed === 0), JSON.stringify(checks));
  return results;
}

Deno.test("k6 named imports run, and OTLP carries the script's metrics under k6's names", () =>
  withTarget(async (url) => {
    const receiver = metricsReceiver();
    try {
      const results = await runScript(url, [`otlp=${receiver.url}`]);
      const last = (name: string, where: Record<string, string> = {}) => {
        const points = dataPoints(receiver.otlp, name).filter((p) =>
          Object.entries(where).every(([k, v]) =>
            p.attributes.some((a: any) => a.key === k && a.value.stringValue === v)
          )
        );
        ok(points.length > 0, `${name} ${JSON.stringify(where)} sent`);
        return points.at(-1).asDouble as number;
      };
      assertEquals(last("k6_http_reqs"), results.runs[0].requests);
      assertEquals(last("k6_iterations"), 6);
      assertEquals(last("k6_pages_seen"), 6);
      assertEquals(last("k6_checks", { condition: "nonzero" }), 42);
      assertEquals(last("k6_checks", { condition: "zero" }), 0);
      assertEquals(last("k6_fine_rate", { condition: "nonzero" }), 6);
      // k6 samples vus once a second: a run shorter than that has none, so sends none.
      const vus = dataPoints(receiver.otlp, "k6_vus").map((p) => p.asDouble as number);
      assertEquals(vus.at(-1), k6RunSec(results.runs[0]) < 1 ? undefined : 2);
      ok(last("k6_page_bytes_avg") > 0);
      ok(last("k6_http_req_duration_p99") > 0);
      // Sent beside loadlab's own series, on the run's labels.
      const [point] = dataPoints(receiver.otlp, "k6_iterations");
      ok(point.attributes.some((a: any) => a.key === "run"), JSON.stringify(point.attributes));
    } finally {
      await receiver.close();
    }
  }));

Deno.test("a real Prometheus returns a k6 script's metrics by k6's remote-write names", async () => {
  if (!requireProgram("prometheus")) return;
  await withTarget(async (url) => {
    const dir = Deno.makeTempDirSync({ prefix: "loadlab-k6-prom-" });
    const prometheus = await startPrometheus(dir);
    try {
      const results = await runScript(url, [`prometheus-remote-write=${prometheus.url}`]);
      const value = async (promql: string) => {
        const found = await prometheus.query(promql);
        assertEquals(found.length, 1, `${promql}: ${JSON.stringify(found)}`);
        return Number(found[0].value[1]);
      };
      assertEquals(await value("k6_http_reqs_total"), results.runs[0].requests);
      assertEquals(await value("k6_iterations_total"), 6);
      assertEquals(await value("k6_checks_rate"), 1);
      const vus = (await prometheus.query("k6_vus")).map((f: { value: [number, string] }) =>
        Number(f.value[1])
      );
      assertEquals(vus, k6RunSec(results.runs[0]) < 1 ? [] : [2]);
      assertEquals(await value("k6_pages_seen_total"), 6);
      assertEquals(await value("k6_fine_rate_rate"), 1);
      ok(await value("k6_page_bytes_max") > 0);
      // A time trend in seconds, as k6's output sends it: k6's p99 (between samples) of the run's latency.
      const p99Sec = await value("k6_http_req_duration_p99");
      const p99Ms = k6QuantileUs(decodeHistogram(results.runs[0].histogramEncoded), 0.99) / 1000;
      ok(Math.abs(p99Sec * 1000 - p99Ms) < 1e-6, `${p99Sec}`);
      // Beside loadlab's own series of the same run.
      assertEquals(await value("loadlab_requests_total"), results.runs[0].requests);
    } finally {
      await prometheus.stop();
    }
  });
});
