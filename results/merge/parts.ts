/**
 * @module
 * One run from the loads that ran together against one target (`together:`, k6's scenarios), added
 * up as shards are; sessions pool by step label, endpoints stay apart. Pure.
 */
import type { LatencySummaryMs, RunResult } from "../mod.ts";
import { addFlows, mergeShardRuns, type PoolDurations } from "./shard_runs.ts";

type Flow = NonNullable<RunResult["flows"]>[number];

/** The loads' runs as one run named `name`. */
export function mergeParts(name: string, runs: RunResult[]): RunResult {
  if (runs.length === 1) return { ...runs[0], name };
  // Aligned by when each load's schedule started (its start instant), not by when its run was set up.
  const merged = mergeShardRuns(runs.map(scheduledStart));
  const abortedBy = runs.find((r) => r.abortedBy)?.abortedBy;
  const flows = addFlows(
    runs.flatMap((r) => (r.flows ?? []).map((f) => withLoad(f, r.name))),
    pooledDurations,
  );
  return {
    ...merged,
    name,
    config: { ...merged.config, ...summedLoads(runs) },
    ...(flows.length > 0 ? { flows } : {}),
    ...(abortedBy ? { abortedBy } : {}),
  };
}

/** `run` dated by its schedule's start (`config.startAtEpochMs`) when it has one. */
function scheduledStart(run: RunResult): RunResult {
  const at = Number(run.config.startAtEpochMs);
  return Number.isFinite(at) && at > 0 ? { ...run, startedAt: new Date(at).toISOString() } : run;
}

/** The loads' connections (virtual users) and most connections, summed where every load names them. */
function summedLoads(runs: RunResult[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of ["connections", "maxConnections"]) {
    const each = runs.map((r) => Number(r.config[key]));
    if (each.every((n) => Number.isFinite(n) && n > 0)) out[key] = each.reduce((a, n) => a + n, 0);
  }
  return out;
}

/** `flow` with its counts also kept under `load` (k6's scenario), so a threshold can pick one. */
function withLoad(flow: Flow, load: string): Flow {
  const steps = flow.steps.map((s) => ({
    ...s,
    checks: s.checks?.map((c) => ({ ...c, loads: { [load]: { passed: c.passed, failed: c.failed } } })),
  }));
  const own = {
    completed: flow.completed,
    ...(flow.sessionHistogramEncoded ? { sessionHistogramEncoded: flow.sessionHistogramEncoded } : {}),
  };
  return { ...flow, steps, loads: { ...flow.loads, [load]: own } };
}

/** Two duration summaries as one: weighted mean and spread, exact min and max, larger percentiles. */
export const pooledDurations: PoolDurations = (a, n, b, m) => {
  if (a === null || b === null) return null;
  if (m === 0) return a;
  if (n === 0) return b;
  const mean = (a.mean * n + b.mean * m) / (n + m);
  const square = (n * (a.stdev ** 2 + a.mean ** 2) + m * (b.stdev ** 2 + b.mean ** 2)) / (n + m);
  const pooled: Record<string, number> = {};
  for (const key of Object.keys(a) as Array<keyof LatencySummaryMs>) {
    const [x, y] = [Number(a[key]), Number(b[key])];
    if (Number.isFinite(x) && Number.isFinite(y)) pooled[key] = Math.max(x, y);
  }
  return {
    ...pooled,
    min: Math.min(a.min, b.min),
    max: Math.max(a.max, b.max),
    mean,
    stdev: Math.sqrt(Math.max(0, square - mean ** 2)),
  } as LatencySummaryMs;
};
