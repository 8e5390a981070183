import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { RunAggregator } from "./aggregate.ts";
import { IntervalRecorder } from "./recorder.ts";
import type { IntervalSample } from "./sample.ts";
import { MAX_MESSAGE_CHARS_PER_KIND } from "../../results/schema/keys.ts";

const INTERVAL_MS = 100;
const ORIGIN_MS = 5000;
const newRecorder = (uncorrected: boolean) =>
  new IntervalRecorder({ intervalMs: INTERVAL_MS, originMs: ORIGIN_MS, uncorrected });

/** Deterministic event stream over ~2 s: responses with mixed statuses, some errors, bytes, late sends. */
function feed(target: (k: number) => IntervalRecorder, count: number): number {
  // Starts past the longest latency, so every response's intended send is in the measured run.
  let nowMs = ORIGIN_MS + 21;
  for (let k = 0; k < count; k++) {
    nowMs += 0.37 + (k % 7) * 0.1;
    const r = target(k);
    if (k % 53 === 0) r.recordError(nowMs, k % 2 === 0 ? "timeout" : "reset", `err ${k % 3}`);
    else r.recordResponse(nowMs, k % 11 === 0 ? 500 : 200, 800 + ((k * 7919) % 20_000), 700 + (k % 900));
    r.addBytesRead(nowMs, 120);
    r.addBytesWritten(nowMs, 40);
    if (k % 97 === 0) r.lateSend(nowMs);
    if (k % 400 === 0) r.connected(nowMs, 100 + k);
  }
  return nowMs;
}

/** Deterministic shuffle so samples reach the aggregator out of order. */
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  let state = 42;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

Deno.test("3 workers with out-of-order samples aggregate exactly like one recorder", () => {
  const workers = [newRecorder(true), newRecorder(true), newRecorder(true)];
  const samples: IntervalSample[] = [];
  // Workers drain at their own, unsynchronized moments, as their timers would.
  const drainEvery = [130, 250, 310];
  const endMs = feed((k) => workers[k % 3], 4000);
  for (let w = 0; w < 3; w++) {
    for (let t = ORIGIN_MS + drainEvery[w]; t < endMs; t += drainEvery[w]) {
      samples.push(...workers[w].drain(t, false));
    }
    samples.push(...workers[w].drain(endMs, true));
  }
  const single = newRecorder(true);
  feed(() => single, 4000);

  const many = new RunAggregator({ intervalMs: INTERVAL_MS, uncorrected: true });
  for (const sample of shuffled(samples)) many.add(sample);
  const one = new RunAggregator({ intervalMs: INTERVAL_MS, uncorrected: true });
  for (const sample of single.drain(endMs, true)) one.add(sample);

  const durationSec = (endMs - ORIGIN_MS) / 1000;
  const merged = many.finish(durationSec);
  assertEquals(merged, one.finish(durationSec));
  assertEquals(merged.requests + (merged.errors.timeout ?? 0) + (merged.errors.reset ?? 0), 4000);
  assert(merged.uncorrectedLatencyMs !== null && merged.uncorrectedLatencyMs.max < merged.latencyMs.max);
  assert(merged.connectTimeMs !== null && merged.connects === 10);
});

Deno.test("intervals are dense from 0 to the last index and the last one is cut to the duration", () => {
  const agg = new RunAggregator({ intervalMs: INTERVAL_MS, uncorrected: false });
  const r = newRecorder(false);
  r.recordResponse(ORIGIN_MS + 10, 200, 1000, 1000);
  r.recordResponse(ORIGIN_MS + 350, 404, 3000, 3000);
  for (const sample of r.drain(ORIGIN_MS + 360, true)) agg.add(sample);
  const { intervals } = agg.finish(0.36);
  assertEquals(intervals.map((i) => [i.startMs, i.requests, i.failedStatus]), [
    [0, 1, 0],
    [100, 0, 0],
    [200, 0, 0],
    [300, 1, 1],
  ]);
  assertEquals(intervals[1].p99, 0);
  assertEquals(intervals[0].durationMs, INTERVAL_MS);
  assert(Math.abs(intervals[3].durationMs - 60) < 1e-9, `${intervals[3].durationMs}`);
  assertEquals(intervals[3].statusCodes, { "404": 1 });
  assert(intervals[3].p50 >= 3 && intervals[3].p50 < 3.01);
});

Deno.test("responses ending after the measured duration fold into its last interval", () => {
  const agg = new RunAggregator({ intervalMs: INTERVAL_MS, uncorrected: false });
  const r = newRecorder(false);
  r.recordResponse(ORIGIN_MS + 150, 200, 1000, 1000);
  // In flight at the end of a 0.2 s run, completed during the graceful stop:
  r.recordResponse(ORIGIN_MS + 230, 200, 9000, 9000);
  r.recordResponse(ORIGIN_MS + 420, 503, 9000, 9000);
  for (const sample of r.drain(ORIGIN_MS + 430, true)) agg.add(sample);
  const stats = agg.finish(0.2);
  assertEquals(stats.intervals.map((i) => [i.startMs, i.requests]), [[0, 0], [100, 3]]);
  assertEquals(stats.intervals[1].statusCodes, { "200": 2, "503": 1 });
  assertEquals(stats.requests, 3);
});

Deno.test("successRate counts 2xx/3xx over responses plus errors, and is 0 when nothing happened", () => {
  const r = newRecorder(false);
  for (let i = 0; i < 6; i++) r.recordResponse(ORIGIN_MS + 1 + i, i < 5 ? 200 : 301, 500, 500);
  r.recordResponse(ORIGIN_MS + 7, 429, 500, 500);
  r.recordResponse(ORIGIN_MS + 8, 503, 500, 500);
  r.recordError(ORIGIN_MS + 9, "connect", "refused");
  r.recordError(ORIGIN_MS + 9, "timeout", "timed out");
  const agg = new RunAggregator({ intervalMs: INTERVAL_MS, uncorrected: false });
  for (const sample of r.drain(ORIGIN_MS + 10, true)) agg.add(sample);
  const stats = agg.finish(1);
  assertEquals([stats.requests, stats.successRate, stats.rps], [8, 0.6, 8]);
  assertEquals(stats.errors, { connect: 1, timeout: 1 });
  assertEquals(stats.statusCodes, { "200": 5, "301": 1, "429": 1, "503": 1 });

  const empty = new RunAggregator({ intervalMs: INTERVAL_MS, uncorrected: false }).finish(0);
  assertEquals([empty.requests, empty.successRate, empty.rps, empty.generatorBound], [0, 0, 0, false]);
  assertEquals([empty.intervals, empty.percentiles, empty.histogram, empty.stabilizedAtMs], [
    [],
    [],
    [],
    null,
  ]);
  assertEquals([empty.connectTimeMs, empty.uncorrectedLatencyMs, empty.latencyMs.p99], [null, null, 0]);
});

Deno.test("the verdict: late sends name the generator, waiting sends the server, above 1% and 5 of sends", () => {
  const run = (late: number, waited: number, dropped: number) => {
    const r = newRecorder(false);
    for (let i = 0; i < 100; i++) r.recordResponse(ORIGIN_MS + 1, 200, 500, 500);
    for (let i = 0; i < late; i++) r.lateSend(ORIGIN_MS + 1);
    for (let i = 0; i < waited; i++) r.serverBoundSend(ORIGIN_MS + 1);
    for (let i = 0; i < dropped; i++) r.droppedSend(ORIGIN_MS + 1);
    const agg = new RunAggregator({ intervalMs: INTERVAL_MS, uncorrected: false });
    for (const sample of r.drain(ORIGIN_MS + 2, true)) agg.add(sample);
    const s = agg.finish(1);
    return [s.generatorBound, s.serverBound];
  };
  // sends = responses + errors + dropped sends
  assertEquals(run(1, 0, 0), [false, false]); // 1 of 100: exactly 1% is not more than 1%
  assertEquals(run(2, 0, 0), [false, false]); // 2% but only 2 sends: too few to name a cause
  assertEquals(run(5, 0, 0), [true, false]);
  assertEquals(run(0, 2, 0), [false, false]);
  assertEquals(run(0, 5, 0), [false, true]);
  assertEquals(run(0, 0, 5), [false, false]); // a drop was counted late or waiting first
  assertEquals(run(3, 40, 0), [false, true]); // both: the larger names the cause
  assertEquals(run(40, 3, 0), [true, false]);
  assertEquals(run(55, 60, 0), [true, false]); // over half late: the isolate's own backlog made the wait
  assertEquals(run(30, 60, 0), [false, true]); // a busy machine's timer jitter: late, but fewer than waiting
});

Deno.test("error messages are each kept, their text bounded when merged over many intervals", () => {
  const r = newRecorder(false);
  // 40 messages of a twentieth of the bound each, one an interval: 20 fit over the run, the rest pool.
  const long = "x".repeat(MAX_MESSAGE_CHARS_PER_KIND / 20 - 3);
  for (let i = 0; i < 40; i++) {
    r.recordError(ORIGIN_MS + i * INTERVAL_MS, "connect", `#${String(i).padStart(2, "0")}${long}`);
  }
  for (let i = 0; i < 30; i++) r.recordError(ORIGIN_MS + i * INTERVAL_MS, "timeout", `refused #${i}`);
  const agg = new RunAggregator({ intervalMs: INTERVAL_MS, uncorrected: false });
  for (const sample of r.drain(ORIGIN_MS + 40 * INTERVAL_MS, true)) agg.add(sample);
  const { connect, timeout } = agg.finish(4).errorMessages;
  assertEquals([Object.keys(connect).length, connect["(other)"], connect[`#00${long}`]], [21, 20, 1]);
  assertEquals(Object.keys(timeout).length, 30);
});

Deno.test("live reports totals and rps/p99 over the last second of complete intervals", () => {
  const agg = new RunAggregator({ intervalMs: INTERVAL_MS, uncorrected: false });
  const r = newRecorder(false);
  // 5 requests per 100 ms interval for 1.5 s, latency 2 ms; then a partial interval with a slow one.
  for (let i = 0; i < 75; i++) r.recordResponse(ORIGIN_MS + 2 + i * 20, 200, 2000, 2000);
  r.recordResponse(ORIGIN_MS + 1510, 200, 90_000, 90_000);
  r.recordError(ORIGIN_MS + 1511, "timeout", "t");
  for (const sample of r.drain(ORIGIN_MS + 1520, true)) agg.add(sample);
  const live = agg.live(15); // interval 15 is still filling
  assertEquals([live.requests, live.errors, live.rps], [76, 1, 50]);
  assert(live.p99Ms >= 2 && live.p99Ms < 2.01, `${live.p99Ms}`);
  assertEquals(agg.live().rps, 50); // default: the highest index seen is the one filling
  assertEquals(new RunAggregator({ intervalMs: INTERVAL_MS, uncorrected: false }).live(), {
    requests: 0,
    errors: 0,
    rps: 0,
    p99Ms: 0,
  });
});

Deno.test("every interval keeps its errors by kind and its server-bound sends, merged across workers", () => {
  // Two workers; the target dies at 300 ms: timeouts before it, connect errors and resets after.
  const [a, b] = [newRecorder(false), newRecorder(false)];
  a.recordError(ORIGIN_MS + 50, "timeout", "timed out");
  b.recordError(ORIGIN_MS + 60, "timeout", "timed out");
  a.recordResponse(ORIGIN_MS + 150, 200, 1000, 1000);
  b.serverBoundSend(ORIGIN_MS + 160);
  a.recordError(ORIGIN_MS + 310, "reset", "connection reset");
  b.recordError(ORIGIN_MS + 320, "connect", "refused");
  b.recordError(ORIGIN_MS + 420, "connect", "refused");
  const agg = new RunAggregator({ intervalMs: INTERVAL_MS, uncorrected: false });
  for (const sample of [...b.drain(ORIGIN_MS + 450, true), ...a.drain(ORIGIN_MS + 450, true)]) {
    agg.add(sample);
  }
  const stats = agg.finish(0.45);
  assertEquals(stats.intervals.map((iv) => iv.errorKinds), [
    { timeout: 2 },
    {},
    {},
    { reset: 1, connect: 1 },
    { connect: 1 },
  ]);
  assertEquals(stats.intervals.map((iv) => iv.errors), [2, 0, 0, 2, 1]);
  assertEquals(stats.intervals.map((iv) => iv.serverBoundSends), [0, 1, 0, 0, 0]);
  // The intervals add up to the run's totals, kind by kind.
  const byKind: Record<string, number> = {};
  for (const iv of stats.intervals) {
    for (const [kind, n] of Object.entries(iv.errorKinds ?? {})) byKind[kind] = (byKind[kind] ?? 0) + n;
  }
  assertEquals(byKind, stats.errors);
});

Deno.test("errors by kind of intervals past the measured duration fold into its last interval", () => {
  const r = newRecorder(false);
  r.recordError(ORIGIN_MS + 150, "timeout", "t");
  r.recordError(ORIGIN_MS + 420, "closed-early", "eof");
  const agg = new RunAggregator({ intervalMs: INTERVAL_MS, uncorrected: false });
  for (const sample of r.drain(ORIGIN_MS + 430, true)) agg.add(sample);
  const { intervals } = agg.finish(0.2);
  assertEquals(intervals.map((iv) => iv.errorKinds), [{}, { timeout: 1, "closed-early": 1 }]);
});

Deno.test("onInterval: each interval once, in index order, when every worker reported it, with its counts", () => {
  const workers = [newRecorder(false), newRecorder(false)];
  const endMs = feed((k) => workers[k % 2], 2000);
  const seen: Array<[number, number]> = [];
  const agg = new RunAggregator({
    intervalMs: INTERVAL_MS,
    uncorrected: false,
    workers: 2,
    onInterval: (iv) => seen.push([iv.index, iv.requests + iv.errors]),
  });
  // Worker 1 runs ahead: nothing completes until worker 0 reports the same intervals.
  const early = workers[1].drain(ORIGIN_MS + 400, false);
  for (const s of early) agg.add(s, 1);
  assertEquals(seen.length, 0);
  for (const s of workers[0].drain(ORIGIN_MS + 400, false)) agg.add(s, 0);
  assert(seen.length > 0, "worker 0 caught up");
  for (const s of workers[0].drain(endMs, true)) agg.add(s, 0);
  for (const s of workers[1].drain(endMs, true)) agg.add(s, 1);
  const indexes = seen.map(([i]) => i);
  assertEquals(indexes, [...indexes].sort((a, b) => a - b), "ascending");
  assertEquals(new Set(indexes).size, indexes.length, "once each");
  const { intervals } = agg.finish((endMs - ORIGIN_MS) / 1000);
  const sent = intervals.reduce((a, iv) => a + iv.requests + iv.errors, 0);
  assertEquals(seen.reduce((a, [, n]) => a + n, 0), sent, "every answer was in a completed interval");
});

Deno.test("the drain after the load's end is counted apart and the achieved rate is served per second", () => {
  const r = newRecorder(false);
  r.setLoadEnd(ORIGIN_MS + 1000);
  // 100 responses within the 1 s window, then 300 that the graceful stop drained.
  for (let k = 0; k < 100; k++) r.recordResponse(ORIGIN_MS + 5 + k * 9, 200, 1000, 1000);
  for (let k = 0; k < 300; k++) r.recordResponse(ORIGIN_MS + 1000 + k, 200, 1000, 1000);
  r.retried(ORIGIN_MS + 50);
  r.unfinished(ORIGIN_MS + 1400, 7);
  const agg = new RunAggregator({ intervalMs: INTERVAL_MS, uncorrected: false, requestedRps: 400 });
  for (const s of r.drain(ORIGIN_MS + 1500, true)) agg.add(s);
  const stats = agg.finish(1);
  assertEquals([stats.requests, stats.drained, stats.rps], [400, 300, 100]);
  assertEquals([stats.retried, stats.unfinished, stats.errors], [1, 7, {}]);
  const last = stats.intervals.at(-1)!;
  assertEquals([stats.intervals.length, last.requests, last.drained], [10, 300, 300]);
});
