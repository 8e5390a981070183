/**
 * @module
 * The shards' intervals on one grid by absolute time, added per interval (percentiles from the added
 * HDR histograms, NaN where a shard kept none). Pure.
 */
import type { IntervalResult, RunResult } from "../mod.ts";
import {
  addIntervalCounts,
  addIntervalDetail,
  emptyIntervalCounts,
  emptyIntervalDetail,
} from "../interval_counts.ts";
import { encodeHistogram, mergeEncoded, summarizeMs } from "../histogram.ts";
import { busierLoad, type GeneratorLoad, loadOf } from "../conclude/generator_saturation.ts";

/** Where each shard's intervals land in the merged run. */
export interface Alignment {
  intervalMs: number;
  /** Per shard: merged interval index of its interval 0. */
  offsets: number[];
  /** True when a shard started off the interval grid by more than 1 ms (its offset was rounded). */
  unaligned: boolean;
}

/** When a shard's measured run began (ms since the epoch): its schedule start plus its warm-up. */
function originEpochMs(run: RunResult): number {
  return Date.parse(run.segment?.startAt ?? run.startedAt) + run.warmupSec * 1000;
}

/** Offsets of each shard's intervals on the common grid, from the shards' start times. */
export function alignShards(runs: RunResult[]): Alignment {
  const configured = Number(runs[0].config.intervalMs);
  const intervalMs = configured > 0 ? configured : (runs[0].intervals[0]?.durationMs ?? 250);
  const origins = runs.map(originEpochMs);
  const base = Math.min(...origins);
  const offsets = origins.map((o) => Math.round((o - base) / intervalMs));
  const unaligned = origins.some((o, k) => Math.abs(o - base - offsets[k] * intervalMs) > 1);
  return { intervalMs, offsets, unaligned };
}

/** The shards' intervals added per absolute interval; percentiles from the added histograms. */
export function mergeIntervals(runs: RunResult[], alignment: Alignment): IntervalResult[] {
  const slots = new Map<number, IntervalResult[]>();
  runs.forEach((run, k) => {
    run.intervals.forEach((iv, i) => {
      const index = i + alignment.offsets[k];
      slots.set(index, [...(slots.get(index) ?? []), iv]);
    });
  });
  const last = Math.max(-1, ...slots.keys());
  return Array.from(
    { length: last + 1 },
    (_, index) => mergeInterval(slots.get(index) ?? [], index, alignment),
  );
}

function mergeInterval(parts: IntervalResult[], index: number, alignment: Alignment): IntervalResult {
  const counts = emptyIntervalCounts();
  const detail = emptyIntervalDetail();
  let inFlight = 0, connections = 0;
  let generator: GeneratorLoad | undefined;
  for (const iv of parts) {
    addIntervalCounts(counts, iv);
    addIntervalDetail(detail, iv);
    inFlight += iv.inFlight;
    connections += iv.connections;
    generator = busierLoad(generator, loadOf(iv));
  }
  const exact = parts.every((iv) => iv.requests === 0 || iv.histogramEncoded !== undefined);
  const histogram = mergeEncoded(parts.flatMap((iv) => (iv.histogramEncoded ? [iv.histogramEncoded] : [])));
  const summary = summarizeMs(histogram);
  const latency = (v: number) => (exact ? v : NaN);
  return {
    startMs: index * alignment.intervalMs,
    durationMs: parts.length ? Math.max(...parts.map((iv) => iv.durationMs)) : alignment.intervalMs,
    requests: counts.requests,
    ...(counts.drained > 0 ? { drained: counts.drained } : {}),
    errors: counts.errors,
    ...(detail.errorKinds !== null ? { errorKinds: detail.errorKinds } : {}),
    failedStatus: counts.failedStatus,
    p50: latency(summary.p50),
    p75: latency(summary.p75),
    p90: latency(summary.p90),
    p99: latency(summary.p99),
    mean: latency(summary.mean),
    max: latency(summary.max),
    bytesRead: counts.bytesRead,
    bytesWritten: counts.bytesWritten,
    lateSends: counts.lateSends,
    ...(detail.serverBoundSends !== null ? { serverBoundSends: detail.serverBoundSends } : {}),
    inFlight,
    ...generator,
    connections,
    statusCodes: counts.statusCodes,
    ...(exact ? { histogramEncoded: encodeHistogram(histogram) } : {}),
  };
}
