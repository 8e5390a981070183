import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { createHistogram, decodeHistogram, encodeHistogram, summarizeMs } from "../histogram.ts";
import { mergeParts } from "./shard_runs.ts";
import { makeRun } from "../../tests/fixtures/make_run.ts";
import type { RunResult } from "../mod.ts";

/** A run whose schedule started `startAfterMs` after 10:00, with one script flow of `steps`. */
function part(name: string, startAfterMs: number, steps: Array<[string, number, string, number, number]>) {
  const run = makeRun({ name, rps: 100, durationSec: 4, dist: { medianMs: 5, sigma: 0.3 }, seed: 7 });
  const flow = {
    name: "two.js",
    sessions: 10,
    completed: 10,
    failed: 0,
    // The runner's form: the summary of the histogram beside it.
    sessionMs: summarizeMs(decodeHistogram(run.histogramEncoded!)),
    sessionHistogramEncoded: run.histogramEncoded,
    steps: steps.map(([label, requests, check, passed, failed]) => ({
      label,
      requests,
      errors: 0,
      latencyMs: run.latencyMs,
      checks: [{ name: check, passed, failed }],
    })),
  };
  const startAtEpochMs = Date.parse("2025-05-04T10:00:00.000Z") + startAfterMs;
  // Two virtual users in a, three in b.
  const connections = name === "a" ? 2 : 3;
  return { ...run, config: { ...run.config, startAtEpochMs, connections }, flows: [flow] } as RunResult;
}

Deno.test("loads run together add up: counts summed, the later one's intervals after its start, steps and checks by name", () => {
  const a = part("a", 0, [["home", 40, "ok", 40, 0], ["shared", 5, "same", 5, 0]]);
  const b = part("b", 1000, [["shared", 7, "same", 6, 1], ["api", 20, "api ok", 20, 0]]);
  const merged = mergeParts("app/a+b", [a, b]);
  assertEquals(merged.name, "app/a+b");
  assertEquals(merged.requests, a.requests + b.requests);
  // b's schedule began 1 s (4 intervals of 250 ms) later: the run is 4 intervals longer than either.
  assertEquals(merged.intervals.length, a.intervals.length + 4);
  assertEquals(merged.intervals[0].requests, a.intervals[0].requests);
  assertEquals(merged.intervals[4].requests, a.intervals[4].requests + b.intervals[0].requests);
  const flow = merged.flows![0];
  const own = a.flows![0].sessionMs!;
  assertEquals([flow.sessions, flow.sessionMs?.mean, flow.sessionMs?.p99], [20, own.mean, own.p99]);
  assertEquals(merged.config.connections, 5);
  assertEquals(
    flow.steps.map((s) => [s.label, s.requests, s.checks!.map((c) => [c.name, c.passed, c.failed])]),
    [
      ["home", 40, [["ok", 40, 0]]],
      ["shared", 12, [["same", 11, 1]]],
      ["api", 20, [["api ok", 20, 0]]],
    ],
  );
  assertEquals(mergeParts("app/a", [a]).requests, a.requests);
});

Deno.test("scenarios' iteration durations with their histograms pool exactly: the median is the samples'", () => {
  // 900 iterations of ~1 ms in one scenario, 100 of ~500 ms in the other: the pooled median is ~1 ms.
  const histogramOf = (ms: number, n: number) => {
    const h = createHistogram();
    for (let i = 0; i < n; i++) h.recordValue(ms * 1000);
    return h;
  };
  const [fast, slow] = [histogramOf(1, 900), histogramOf(500, 100)];
  const a = part("a", 0, [["home", 900, "ok", 900, 0]]), b = part("b", 0, [["home", 100, "ok", 100, 0]]);
  a.flows![0] = {
    ...a.flows![0],
    completed: 900,
    sessionMs: summarizeMs(fast),
    sessionHistogramEncoded: encodeHistogram(fast),
  };
  b.flows![0] = {
    ...b.flows![0],
    completed: 100,
    sessionMs: summarizeMs(slow),
    sessionHistogramEncoded: encodeHistogram(slow),
  };
  const flow = mergeParts("app/a+b", [a, b]).flows![0];
  ok(flow.sessionMs!.p50 < 1.1, `median ${flow.sessionMs!.p50} ms`);
  ok(flow.sessionMs!.p95 > 400 && flow.sessionMs!.max > 400, JSON.stringify(flow.sessionMs));
  assertEquals(decodeHistogram(flow.sessionHistogramEncoded as string).totalCount, 1000);
});
