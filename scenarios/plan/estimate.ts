/**
 * @module
 * How long a plan takes on the wall clock, as a range (`loadlab presets`).
 */
import type { TargetSpec } from "../../targets/spec.ts";
import { estimateDurationMs } from "./plan.ts";
import { OPTIONS } from "../../runner/config_fields.ts";
import type { Plan, PlannedRun } from "./types.ts";

/** A duration range in ms: an idle machine near the low end, a busy one near the high end. */
export interface DurationRange {
  lowMs: number;
  highMs: number;
}

/** loadlab's start (plan, preflight) and its end (analysis, report.html), once per plan. */
const PROCESS_MS: [number, number] = [800, 3_000];
/** Per run: worker isolates, generator warm-up, pre-connected pool, results appended. */
const RUN_SETUP_MS: [number, number] = [400, 1_200];
/** Per target process started (built-in, example app, proxy) and per Redis started beside one. */
const PROCESS_START_MS: [number, number] = [500, 1_800];
const REDIS_START_MS: [number, number] = [300, 600];
/** The share of runs whose graceful stop runs out (2 of 12 in cache-burst's quick run). */
const STOPPED_SHARE = 0.25;
const DEFAULT_TIMEOUT_MS: number = OPTIONS.timeoutMs.schema.parse(undefined);
const DEFAULT_GRACEFUL_STOP_MS: number = OPTIONS.gracefulStopMs.schema.parse(undefined);

/** Processes (and Redis servers) a target spec starts: [processes, redis servers]. */
function startsOf(spec: TargetSpec): [number, number] {
  if (spec.kind === "external") return [0, 0];
  if (spec.kind === "proxy") {
    const up = "kind" in spec.upstream ? startsOf(spec.upstream) : [0, 0];
    return [1 + up[0], (spec.redisUrl ? 0 : 1) + up[1]];
  }
  return [1, spec.redis && !spec.redisUrl ? 1 : 0];
}

/** The graceful stop a run may wait out at its end: answers still in flight, up to the timeout. */
function stopMs(run: PlannedRun): number {
  const a = run.attack;
  return Math.min(a.gracefulStopMs ?? DEFAULT_GRACEFUL_STOP_MS, a.timeoutMs ?? DEFAULT_TIMEOUT_MS);
}

/** The wall-clock range of a whole plan (searches counted at their probe budget). */
export function estimateRangeMs(plan: Plan): DurationRange {
  const loadsMs = estimateDurationMs(plan);
  const runs = [...plan.runs, ...plan.searches.flatMap((s) => Array(s.maxProbes + 1).fill(s.base))];
  let [lowMs, highMs] = [loadsMs + PROCESS_MS[0], loadsMs + PROCESS_MS[1]];
  const stops: number[] = [];
  for (const run of runs) {
    lowMs += RUN_SETUP_MS[0];
    highMs += RUN_SETUP_MS[1];
    if (run.freshTarget && run.target.kind === "spec") {
      const [processes, redis] = startsOf(run.target.spec);
      lowMs += processes * PROCESS_START_MS[0] + redis * REDIS_START_MS[0];
      highMs += processes * PROCESS_START_MS[1] + redis * REDIS_START_MS[1];
    }
    if (stopMs(run) > 0) stops.push(stopMs(run));
  }
  stops.sort((a, b) => b - a);
  highMs += stops.slice(0, Math.ceil(stops.length * STOPPED_SHARE)).reduce((a, b) => a + b, 0);
  return { lowMs, highMs };
}
