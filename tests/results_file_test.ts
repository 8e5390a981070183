/**
 * End to end for the results format: a real short attack against a `Deno.serve` target in this process,
 * written as results.json and read back through the schema, must come back equal; every interval keeps
 * its encoded histogram (and adding them gives the run's total count) unless interval histograms are off;
 * a run stopped early or with no answer is written beside a complete file, not over it.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { decodeHistogram, mergeEncoded } from "../results/histogram.ts";
import { buildResultsFile, loadResultsFile, pathKeepingAnswers, writeResultsFile } from "../results/io.ts";
import type { RunResult } from "../results/mod.ts";

/**
 * A short, bounded count run (300 requests over 2 connections, 50 ms intervals). The count ends it; the 60 s
 * cap only bounds a hang (at load 30 a 10 s cap cut it at 203 requests).
 */
async function shortRun(intervalHistograms?: boolean): Promise<RunResult> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    await new Promise((r) => setTimeout(r, 1));
    return new Response("ok");
  });
  try {
    const config = parseAttackConfig({
      url: `http://127.0.0.1:${server.addr.port}/`,
      model: "count",
      requests: 300,
      connections: 2,
      durationMs: 60_000,
      intervalMs: 50,
      ...(intervalHistograms === undefined ? {} : { intervalHistograms }),
    });
    return await runAttack(config);
  } finally {
    await server.shutdown();
  }
}

/** What JSON keeps of a value: keys whose value is undefined disappear. */
function jsonShape<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

Deno.test("a real run written as results.json reads back equal (v2, NaN kept as NaN)", async () => {
  const run = await shortRun();
  const dir = await Deno.makeTempDir({ prefix: "loadlab_results_" });
  try {
    const path = join(dir, "results.json");
    const file = buildResultsFile({ experiment: { name: "roundtrip" }, runs: [run] });
    await writeResultsFile(path, file);
    const back = await loadResultsFile(path);
    assertEquals(back.schema, "loadlab.results/v3");
    // NaN (written as null) must come back as NaN, not 0: compare with NaN restored where it was.
    assertEquals(back, { ...jsonShape(file), runs: [{ ...jsonShape(run), latencyMs: run.latencyMs }] });
    assertEquals(back.runs[0].requests, 300);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every interval keeps its histogram; together they count every request of the run", async () => {
  const run = await shortRun();
  ok(run.intervals.length >= 1);
  for (const interval of run.intervals) {
    ok(interval.histogramEncoded, `interval at ${interval.startMs} ms has a histogram`);
    assertEquals(decodeHistogram(interval.histogramEncoded).totalCount, interval.requests);
  }
  const merged = mergeEncoded(run.intervals.map((i) => i.histogramEncoded!));
  assertEquals(merged.totalCount, run.requests);
  assertEquals(merged.totalCount, decodeHistogram(run.histogramEncoded).totalCount);
  assertEquals(merged.maxValue, decodeHistogram(run.histogramEncoded).maxValue);
});

Deno.test("intervalHistograms: false drops the interval histograms, not the run's", async () => {
  const run = await shortRun(false);
  ok(run.intervals.length >= 1);
  for (const interval of run.intervals) assertEquals("histogramEncoded" in interval, false);
  assertEquals(decodeHistogram(run.histogramEncoded).totalCount, 300);
  assertEquals(run.config.intervalHistograms, false);
});

Deno.test("a run stopped early or answered by nothing goes beside a complete file, never over it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const run = await shortRun(false), path = join(dir, "r.json");
    const good = buildResultsFile({ experiment: { name: "kept" }, runs: [run] });
    const none = { ...good, runs: [{ ...run, requests: 0 }] };
    assertEquals(pathKeepingAnswers(path, none), path, "no file there: written where asked");
    await writeResultsFile(path, good);
    assertEquals(pathKeepingAnswers(path, none), join(dir, "r.partial.json"));
    assertEquals(pathKeepingAnswers(path, { ...good, complete: false }), join(dir, "r.partial.json"));
    assertEquals(pathKeepingAnswers(path, good), path, "a complete run with answers replaces it");
    await writeResultsFile(path, none);
    assertEquals(pathKeepingAnswers(path, none), path, "nothing of worth there to keep");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
