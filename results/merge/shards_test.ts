import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { parseResultsFile, type ResultsFile } from "../mod.ts";
import { createHistogram, encodeHistogram, summarizeMs } from "../histogram.ts";
import { MergeError, mergeShardFiles, type ShardFile } from "./shards.ts";
import { mergeShardRuns } from "./shard_runs.ts";
import { makeRun } from "../../tests/fixtures/make_run.ts";

const START = "2026-11-21T17:00:00.000Z";
const INTERVAL_MS = 250;

/** A shard file whose run saw `latenciesUs[i]` in interval i (every response a 200). */
function shard(
  index: number,
  count: number,
  latenciesUs: number[][],
  opts: { experiment?: string; startAt?: string; rate?: number; host?: string } = {},
): ShardFile {
  const total = createHistogram();
  const intervals = latenciesUs.map((values, i) => {
    const h = createHistogram();
    for (const v of values) {
      h.recordValue(v);
      total.recordValue(v);
    }
    return {
      startMs: i * INTERVAL_MS,
      durationMs: INTERVAL_MS,
      requests: values.length,
      statusCodes: { "200": values.length },
      histogramEncoded: encodeHistogram(h),
      ...zeros,
    };
  });
  const requests = latenciesUs.flat().length;
  const raw = {
    schema: "loadlab.results/v3",
    createdAt: START,
    environment: { hostname: opts.host ?? `gen-${index}` },
    experiment: { name: opts.experiment ?? "attack" },
    runs: [{
      name: "attack",
      url: "http://127.0.0.1:1/",
      model: "rate",
      config: { intervalMs: INTERVAL_MS, phases: [{ durationMs: 1000, ratePerSec: opts.rate ?? 100 }] },
      startedAt: START,
      durationSec: latenciesUs.length * INTERVAL_MS / 1000,
      requests,
      rps: requests,
      successRate: 1,
      latencyMs: summarizeMs(total),
      histogramEncoded: encodeHistogram(total),
      statusCodes: { "200": requests },
      connects: 2,
      bytesRead: 0,
      bytesWritten: 0,
      lateSends: 0,
      intervals,
      segment: { index, count, startAt: opts.startAt ?? START, lateMs: 0 },
    }],
    thresholds: [{ expression: "p99 < 1s", run: "attack", actual: null, ok: true, pending: true }],
  };
  const parsed = parseResultsFile(raw);
  if (!parsed.ok) throw new Error(parsed.problem);
  return { file: `shard-${index}.json`, results: parsed.results };
}
const zeros = {
  errors: 0,
  failedStatus: 0,
  p50: 0,
  p75: 0,
  p90: 0,
  p99: 0,
  mean: 0,
  max: 0,
  bytesRead: 0,
  bytesWritten: 0,
  lateSends: 0,
  inFlight: 0,
  connections: 1,
};

function problemsOf(f: () => unknown): string[] {
  try {
    f();
  } catch (err) {
    ok(err instanceof MergeError, String(err));
    return err.problems;
  }
  throw new Error("expected a MergeError");
}

Deno.test("merge: counts add up, latency is the percentiles of every request together", () => {
  const a = [[1000, 2000, 3000], [4000]];
  const b = [[50_000], [60_000, 70_000]];
  const c = [[900], [], [123_456]];
  const merged: ResultsFile = mergeShardFiles([shard(2, 3, c), shard(0, 3, a), shard(1, 3, b)]);
  const run = merged.runs[0];
  const all = createHistogram();
  for (const v of [...a, ...b, ...c].flat()) all.recordValue(v);
  assertEquals(run.requests, 9);
  assertEquals(run.latencyMs, summarizeMs(all));
  assertEquals(run.intervals.map((iv) => iv.requests), [5, 3, 1]);
  const second = createHistogram();
  for (const v of [4000, 60_000, 70_000]) second.recordValue(v);
  assertEquals(run.intervals[1].p99, summarizeMs(second).p99);
  assertEquals(run.intervals.map((iv) => iv.connections), [3, 3, 1]);
  assertEquals(run.connects, 6);
  assertEquals(run.segment, undefined);
  assertEquals(merged.shards?.count, 3);
  assertEquals(merged.shards?.hosts, ["gen-0", "gen-1", "gen-2"]);
  assertEquals(merged.shards?.shards.map((s) => s.file), ["shard-0.json", "shard-1.json", "shard-2.json"]);
  assertEquals(merged.shards?.partial, false);
  assertEquals(merged.thresholds.map((t) => [t.expression, t.ok, t.pending]), [[
    "p99 < 1s",
    true,
    undefined,
  ]]);
});

Deno.test("merge: every counter a run keeps adds up over the shards; the counters it does not keep stay out", () => {
  const counted = (index: number, k: number) => {
    const file = shard(index, 2, [[1000, 2000]]);
    Object.assign(file.results.runs[0], {
      drained: k,
      bytesRead: 10 * k,
      bytesWritten: 20 * k,
      lateSends: 3 * k,
      droppedSends: 4 * k,
      reconnects: 5 * k,
      retried: 6 * k,
      unfinished: 7 * k,
    });
    return file;
  };
  const run = mergeShardFiles([counted(0, 1), counted(1, 2)]).runs[0];
  const { drained, bytesRead, bytesWritten, lateSends, droppedSends, reconnects, retried, unfinished } = run;
  assertEquals(
    { drained, bytesRead, bytesWritten, lateSends, droppedSends, reconnects, retried, unfinished },
    {
      drained: 3,
      bytesRead: 30,
      bytesWritten: 60,
      lateSends: 9,
      droppedSends: 12,
      reconnects: 15,
      retried: 18,
      unfinished: 21,
    },
  );
  assertEquals([run.requests, run.connects, run.serverBoundSends], [4, 4, 0]);
  // A run keeps no failed-status count, and the sparse counts only when they are not zero.
  assertEquals(["failedStatus", "unjudged", "unrecordedLatencies"].filter((key) => key in run), []);
});

Deno.test("merge: intervals line up by absolute time, a shard a whole interval late lands one later", () => {
  const late = new Date(Date.parse(START) + INTERVAL_MS).toISOString();
  const merged = mergeShardFiles([shard(0, 2, [[1000], [1000]]), shard(1, 2, [[2000]], { startAt: late })]);
  assertEquals(merged.runs[0].intervals.map((iv) => iv.requests), [1, 2]);
  assertEquals(merged.shards?.unaligned, undefined);
  const off = new Date(Date.parse(START) + 100).toISOString();
  ok(mergeShardFiles([shard(0, 2, [[1]]), shard(1, 2, [[1]], { startAt: off })]).shards?.unaligned);
});

Deno.test("merge refuses: other experiments, other loads, overlaps, non-shards; names missing segments", () => {
  const other = shard(1, 2, [[1]], { experiment: "other" });
  ok(
    problemsOf(() => mergeShardFiles([shard(0, 2, [[1]]), other]))[0].startsWith(
      "shards of different experiments",
    ),
  );
  const rate = shard(1, 2, [[1]], { rate: 200 });
  ok(problemsOf(() => mergeShardFiles([shard(0, 2, [[1]]), rate]))[0].includes("differs in phases"));
  const twice = problemsOf(() =>
    mergeShardFiles([shard(0, 3, [[1]]), shard(0, 3, [[2]]), shard(1, 3, [[1]])])
  );
  ok(twice[0].includes("segment 0/3 overlaps"), twice[0]);
  const missing = problemsOf(() => mergeShardFiles([shard(0, 4, [[1]]), shard(2, 4, [[1]])]));
  ok(missing[0].startsWith("missing segments 1/4, 3/4"), missing[0]);
  const plain = shard(0, 1, [[1]]);
  plain.results.runs[0].segment = undefined;
  ok(problemsOf(() => mergeShardFiles([plain]))[0].includes("not a shard"));
  ok(problemsOf(() => mergeShardFiles([shard(0, 2, [[1]]), shard(1, 3, [[1]])]))[0].includes("segment sets"));
  const bare = shard(1, 2, [[1]]);
  bare.results.runs[0].histogramEncoded = "";
  ok(
    problemsOf(() => mergeShardFiles([shard(0, 2, [[1]]), bare]))[0].includes(
      '"attack" has no histogramEncoded',
    ),
  );
});

Deno.test("merge --allow-partial: merges what is there and marks it", () => {
  const merged = mergeShardFiles([shard(0, 4, [[1000]]), shard(2, 4, [[2000]])], { allowPartial: true });
  assertEquals(merged.runs[0].requests, 2);
  assertEquals(merged.shards?.missing, [1, 3]);
  assertEquals(merged.shards?.partial, true);
  assertEquals(merged.complete, false);
  throws(() => mergeShardFiles([]), MergeError);
});

Deno.test("merge: each interval's errors by kind and server-bound sends add up, kept only when every shard has them", () => {
  const withKinds = (file: ShardFile, kinds: Array<Record<string, number>>, waited: number[]) => {
    file.results.runs[0].intervals = file.results.runs[0].intervals.map((iv, i) => ({
      ...iv,
      errors: Object.values(kinds[i]).reduce((a, b) => a + b, 0),
      errorKinds: kinds[i],
      serverBoundSends: waited[i],
    }));
    return file;
  };
  const a = withKinds(shard(0, 2, [[1000], [1000]]), [{ timeout: 1 }, {}], [2, 0]);
  const b = withKinds(shard(1, 2, [[1000], [1000]]), [{ timeout: 2 }, { connect: 3, reset: 1 }], [1, 4]);
  const run = mergeShardFiles([a, b]).runs[0];
  assertEquals(run.intervals.map((iv) => iv.errorKinds), [{ timeout: 3 }, { connect: 3, reset: 1 }]);
  assertEquals(run.intervals.map((iv) => iv.errors), [3, 4]);
  assertEquals(run.intervals.map((iv) => iv.serverBoundSends), [3, 4]);
  // A shard from before intervals kept them: the merged sums would undercount, so they are left out.
  const old = shard(1, 2, [[1000], [1000]]);
  const partial = mergeShardFiles([
    withKinds(shard(0, 2, [[1000], [1000]]), [{ timeout: 1 }, {}], [0, 0]),
    old,
  ]);
  assertEquals(partial.runs[0].intervals.map((iv) => [iv.errorKinds, iv.serverBoundSends]), [
    [undefined, undefined],
    [undefined, undefined],
  ]);
});

Deno.test("merge: streams' first messages add exactly, their count and their latency together", () => {
  const withFirst = (file: ShardFile, firstUs: number[]): ShardFile => {
    const h = createHistogram();
    for (const v of firstUs) h.recordValue(v);
    const run = file.results.runs[0];
    run.firstMessage = {
      streams: firstUs.length,
      latencyMs: summarizeMs(h),
      histogramEncoded: encodeHistogram(h),
    };
    return file;
  };
  const merged = mergeShardFiles([
    withFirst(shard(0, 3, [[5000, 6000]]), [100, 200]),
    withFirst(shard(1, 3, [[7000]]), [9000]),
    shard(2, 3, [[8000]]), // a shard whose streams never answered more than once
  ]);
  const all = createHistogram();
  for (const v of [100, 200, 9000]) all.recordValue(v);
  assertEquals(merged.runs[0].firstMessage?.streams, 3);
  assertEquals(merged.runs[0].firstMessage?.latencyMs, summarizeMs(all));
  assertEquals(
    mergeShardFiles([shard(0, 2, [[1000]]), shard(1, 2, [[2000]])]).runs[0].firstMessage,
    undefined,
  );
});

Deno.test("merge: shards' stuck workers and the answers whose latencies they lost add up, the run incomplete", () => {
  const cut = (index: number, stuck: number, unrecorded: number) => {
    const file = shard(index, 2, [[1000, 2000]]);
    Object.assign(file.results.runs[0], {
      incomplete: true,
      stuckWorkers: stuck,
      unrecordedLatencies: unrecorded,
    });
    return file;
  };
  const run = mergeShardFiles([cut(0, 1, 30), cut(1, 2, 12)]).runs[0];
  assertEquals([run.incomplete, run.stuckWorkers, run.unrecordedLatencies, run.exitedWorkers], [
    true,
    3,
    42,
    undefined,
  ]);
  // A shard's memory cut is the merged run's, every shard's workers ended so added up.
  const overMemory = cut(1, 0, 0);
  overMemory.results.runs[0].memoryCut = { limitMb: 2_048, rssMb: 2_100, workers: 2 };
  const limited = mergeShardFiles([cut(0, 1, 0), overMemory]).runs[0];
  assertEquals([limited.incomplete, limited.memoryCut], [true, { limitMb: 2_048, rssMb: 2_100, workers: 2 }]);
  const whole = mergeShardFiles([shard(0, 2, [[1000]]), shard(1, 2, [[2000]])]).runs[0];
  assertEquals([whole.incomplete, whole.stuckWorkers, whole.unrecordedLatencies], [
    undefined,
    undefined,
    undefined,
  ]);
});

Deno.test("merge: unjudged answers add up and stay out of the success rate, as in each shard", () => {
  // Shard 0: 4 answers, 2 unjudged, 1 of the 2 judged failed (50%); shard 1: 2 answers, none judged (1).
  const judged = (index: number, latenciesUs: number[], unjudged: number, successRate: number) => {
    const file = shard(index, 2, [latenciesUs]);
    Object.assign(file.results.runs[0], { unjudged, successRate });
    return file;
  };
  const run =
    mergeShardFiles([judged(0, [1000, 2000, 3000, 4000], 2, 0.5), judged(1, [900, 800], 2, 1)]).runs[0];
  assertEquals([run.requests, run.unjudged, run.successRate], [6, 4, 0.5]);
});

Deno.test("shards' session durations pool from their histograms; without them they are left out", () => {
  const histogramOf = (ms: number, n: number) => {
    const h = createHistogram();
    for (let i = 0; i < n; i++) h.recordValue(ms * 1000);
    return h;
  };
  const run = makeRun({ name: "x", rps: 10, durationSec: 1, dist: { medianMs: 5, sigma: 0.3 }, seed: 1 });
  const flowOf = (h: ReturnType<typeof createHistogram>, encoded: boolean) => ({
    name: "f",
    sessions: h.totalCount,
    completed: h.totalCount,
    failed: 0,
    sessionMs: summarizeMs(h),
    ...(encoded ? { sessionHistogramEncoded: encodeHistogram(h) } : {}),
    steps: [],
  });
  const [fast, slow] = [histogramOf(1, 90), histogramOf(500, 10)];
  const pooled =
    mergeShardRuns([{ ...run, flows: [flowOf(fast, true)] }, { ...run, flows: [flowOf(slow, true)] }])
      .flows![0];
  ok(pooled.sessionMs!.p50 < 1.1 && pooled.sessionMs!.max > 400, JSON.stringify(pooled.sessionMs));
  const bare =
    mergeShardRuns([{ ...run, flows: [flowOf(fast, true)] }, { ...run, flows: [flowOf(slow, false)] }])
      .flows![0];
  assertEquals([bare.sessionMs, bare.sessionHistogramEncoded], [null, undefined]);
});

Deno.test("shards' checks add up by name, as the loads run together do", () => {
  const run = makeRun({ name: "x", rps: 10, durationSec: 1, dist: { medianMs: 5, sigma: 0.3 }, seed: 1 });
  const flowOf = (passed: number, failed: number) => ({
    name: "f",
    sessions: 5,
    completed: 5,
    failed: 0,
    sessionMs: null,
    steps: [{
      label: "home",
      requests: 5,
      errors: 0,
      latencyMs: null,
      checks: [{ name: "ok", passed, failed }],
    }],
  });
  const merged = mergeShardRuns([{ ...run, flows: [flowOf(4, 1)] }, { ...run, flows: [flowOf(3, 2)] }]);
  const step = merged.flows![0].steps[0];
  assertEquals([step.requests, step.checks], [10, [{ name: "ok", passed: 7, failed: 3 }]]);
});
