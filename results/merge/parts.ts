/**
 * @module
 * One run from the loads that ran at the same time against one target (an experiment's `together:`,
 * k6's scenarios): added up as shards of one run are (results/merge/shard_runs.ts: counters summed,
 * histograms added, intervals aligned by their absolute start, so a load that started 30 s later lands
 * 30 s into the run; the verdict made again from the sums), except what differs between loads: a
 * script's sessions are one flow whose steps and checks add up by their label and name (each load ran
 * its own function, so steps are not in one order), and the run was stopped by a threshold if any load
 * was. Each load's requests stay apart by their endpoints (a k6 request carries its scenario's name as
 * the `scenario` tag). The config shown is the first load's with `connections` (and `maxConnections`) the
 * loads' sum, the virtual users of all of them as k6 counts `vus_max`; the loads' own configs are the plan's.
 * A flow's session durations pool as k6's `iteration_duration` pools its scenarios' samples: their
 * histograms added; a part without one (an older results file) pools by its summary: mean, spread, min and
 * max exact, each percentile the largest of the parts' (an upper bound of the pooled one). Pure.
 */
import type { LatencySummaryMs, RunResult } from "../mod.ts";
import { mergeShardRuns } from "./shard_runs.ts";
import { encodeHistogram, mergeEncoded, summarizeMs } from "../histogram.ts";

type Flow = NonNullable<RunResult["flows"]>[number];
type Step = Flow["steps"][number];

/** The loads' runs as one run named `name`. */
export function mergeParts(name: string, runs: RunResult[]): RunResult {
  if (runs.length === 1) return { ...runs[0], name };
  // Aligned by when each load's schedule started (its start instant), not by when its run was set up.
  const merged = mergeShardRuns(runs.map(scheduledStart));
  const abortedBy = runs.find((r) => r.abortedBy)?.abortedBy;
  const flows = mergeFlowsByName(runs);
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

/** Flows with one name added up; their steps by label and each step's checks by name. */
function mergeFlowsByName(runs: RunResult[]): Flow[] {
  const byName = new Map<string, Flow>();
  for (const flow of runs.flatMap((r) => (r.flows ?? []).map((f) => withLoad(f, r.name)))) {
    const into = byName.get(flow.name);
    if (into === undefined) {
      byName.set(flow.name, {
        ...flow,
        steps: flow.steps.map((s) => ({ ...s, checks: s.checks?.map((c) => ({ ...c })) })),
      });
      continue;
    }
    poolSessions(into, flow);
    into.loads = { ...into.loads, ...flow.loads };
    into.sessions += flow.sessions;
    into.completed += flow.completed;
    into.failed += flow.failed;
    for (const step of flow.steps) addStep(into, step);
  }
  return [...byName.values()];
}

function addStep(flow: Flow, step: Step): void {
  const into = flow.steps.find((s) => s.label === step.label);
  if (into === undefined) {
    flow.steps.push({ ...step, checks: step.checks?.map((c) => ({ ...c })) });
    return;
  }
  into.requests += step.requests;
  into.errors += step.errors;
  into.latencyMs = null;
  for (const check of step.checks ?? []) {
    const same = into.checks?.find((c) => c.name === check.name);
    if (same === undefined) (into.checks ??= []).push({ ...check });
    else {
      same.passed += check.passed, same.failed += check.failed;
      for (const [load, n] of Object.entries(check.loads ?? {})) {
        const seen = (same.loads ??= {})[load];
        same.loads[load] = { passed: (seen?.passed ?? 0) + n.passed, failed: (seen?.failed ?? 0) + n.failed };
      }
    }
  }
}

/**
 * `flow` with its completed sessions and their durations, and each check's counts, also kept under `load`
 * (k6's scenario), so a threshold can pick one.
 */
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

/**
 * `flow`'s session durations pooled into `into`'s: their histograms added when both have one (exact, as
 * k6 pools its scenarios' samples), else their summaries (`pooledDurations`).
 */
function poolSessions(into: Flow, flow: Flow): void {
  const [a, b] = [into.sessionHistogramEncoded, flow.sessionHistogramEncoded];
  if (typeof a === "string" && typeof b === "string") {
    const pooled = mergeEncoded([a, b]);
    into.sessionMs = summarizeMs(pooled);
    into.sessionHistogramEncoded = encodeHistogram(pooled);
    return;
  }
  into.sessionMs = pooledDurations(into.sessionMs, into.completed, flow.sessionMs, flow.completed);
  delete into.sessionHistogramEncoded;
}

/**
 * Two summaries of `n` and `m` durations as one: mean and spread weighted by count, min and max exact,
 * each percentile the larger of the two (an upper bound of the pooled one). Null when either is missing.
 */
export function pooledDurations(
  a: LatencySummaryMs | null,
  n: number,
  b: LatencySummaryMs | null,
  m: number,
): LatencySummaryMs | null {
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
}
