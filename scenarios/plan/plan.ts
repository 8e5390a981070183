/**
 * @module
 * An experiment as its ordered runs (pure: target x load x sweep point (x grid) x repeat) and its wall time.
 */
import type { RelativeAttackInput } from "../../runner/config.ts";
import { DEFAULT_DURATION_MS } from "../../runner/load/models/fields.ts";
import { pacedMs } from "../../runner/load/models/count.ts";
import { measuredDurationMs } from "../../runner/load/models/mod.ts";
import type { TargetSpec } from "../../targets/spec.ts";
import { noSuchName } from "../../validation/suggest.ts";
import { shownSweepValue } from "../../results/redact.ts";
import { applyParameter, baseAttack, targetKeyOf, withDurationMs } from "./attack.ts";
import type { Experiment } from "../schema/experiment.ts";
import type { FileTarget } from "../schema/targets.ts";
import { ExperimentError } from "../experiment_error.ts";
import { defined } from "../../validation/defined.ts";
import type { Plan, PlannedRun, PlanOptions, SearchPlan, SweepPoint } from "./types.ts";
import { plannedLoads, togetherParts } from "../together.ts";
import { LOAD_MODEL_FACTS } from "../../results/load_models.ts";
import { sweepCovers } from "../schema/checks.ts";
import { DEFAULT_TIMEOUT_MS, OPTIONS } from "../../runner/config_fields.ts";

type Point = Pick<PlannedRun, "sweep" | "sweep2">;

/** Expands `exp` into its runs and searches; throws `ExperimentError` for an unknown `--only` name. */
export function planExperiment(exp: Experiment, opts: PlanOptions = {}): Plan {
  const targets = selected(Object.keys(exp.targets), opts.only?.target, "target");
  const loads = selected(Object.keys(exp.loads), opts.only?.load, "load");
  // Loads run together (`together:`) are one run, planned under the first of them.
  const planned = plannedLoads(exp, loads);
  const cells = exp.order === "interleaved"
    ? interleaved(exp, targets, planned)
    : sequential(exp, targets, planned);
  const redact = !opts.keepSecrets && exp.redact !== false;
  const runs = cells.map(({ target, load, point, repeat }) => {
    const run = buildRun(exp, target, load, point, repeat, redact);
    const together = togetherParts(exp, load, loads, (name) => baseAttack(exp, exp.loads[name], name));
    if (together === null) return run;
    const name = runName(exp, target, together.label, point, repeat);
    return { ...run, name, load: together.label, parts: together.parts };
  });
  return { experiment: exp, runs: scheduled(exp, runs), searches: searchPlans(exp, targets, loads) };
}

function selected(all: string[], only: string[] | undefined, what: string): string[] {
  if (!only) return all;
  const unknown = only.filter((name) => !all.includes(name));
  if (unknown.length > 0) {
    throw new ExperimentError(
      unknown.map((name) => ({ path: "--only", message: noSuchName(what, name, all) })),
    );
  }
  return all.filter((name) => only.includes(name));
}

/** One run before it is built: target and load names, sweep point, repeat. */
type Cell = Pick<PlannedRun, "load" | "repeat"> & { target: string; point: Point };

function interleaved(exp: Experiment, targets: string[], loads: string[]): Cell[] {
  const cells: Cell[] = [];
  const byLoad = loads.map((load) => ({ load, ...pointOrder(exp, targets, load) }));
  for (let repeat = 0; repeat < exp.repeats; repeat++) {
    for (const { load, order, byTarget } of byLoad) {
      for (const [key, point] of order) {
        for (const target of targets) {
          if (byTarget.get(target)!.has(key)) cells.push({ target, load, point, repeat });
        }
      }
    }
  }
  return cells;
}

/** A load's sweep points in first-seen order, and each target's as a set of keys: looked up, not searched. */
function pointOrder(exp: Experiment, targets: string[], load: string) {
  const order = new Map<string, Point>();
  const byTarget = new Map<string, Set<string>>();
  for (const target of targets) {
    const keys = new Set<string>();
    for (const point of pointsOf(exp, target, load)) {
      const key = JSON.stringify(point);
      keys.add(key);
      if (!order.has(key)) order.set(key, point);
    }
    byTarget.set(target, keys);
  }
  return { order, byTarget };
}

function sequential(exp: Experiment, targets: string[], loads: string[]): Cell[] {
  const cells: Cell[] = [];
  for (const target of targets) {
    for (const load of loads) {
      for (const point of pointsOf(exp, target, load)) {
        for (let repeat = 0; repeat < exp.repeats; repeat++) cells.push({ target, load, point, repeat });
      }
    }
  }
  return cells;
}

/** The sweep points of a target x load pair: `[{}]` when no sweep covers it. */
function pointsOf(exp: Experiment, target: string, load: string): Point[] {
  const covering = exp.sweeps.filter((s) => sweepCovers(s, target, load));
  if (covering.length === 0) return [{}];
  const axis = (i: number) =>
    covering[i].values.map((value) => ({ parameter: covering[i].parameter, value }));
  if (exp.grid && covering.length === 2) {
    return axis(0).flatMap((sweep) => axis(1).map((sweep2) => ({ sweep, sweep2 })));
  }
  return covering.flatMap((_, i) => axis(i).map((sweep) => ({ sweep })));
}

/** One run; with `redact`, its name and sweep coordinates show a secret's token, its attack the value. */
function buildRun(
  exp: Experiment,
  variant: string,
  load: string,
  point: Point,
  repeat: number,
  redact = true,
): PlannedRun {
  const file = exp.targets[variant];
  const target: PlannedRun["target"] = file.kind === "url"
    ? { kind: "url", url: file.url }
    : { kind: "spec", spec: resolveSpec(exp, file) };
  const scoped = exp.thresholds.filter((t) =>
    (!t.target || t.target === variant) && (!t.load || t.load === load)
  );
  const aborting = scoped.filter((t) => t.abortOnFail).map((t) => ({
    expr: t.expr,
    delayMs: t.delayAbortEvalMs ?? 0,
  }));
  const shown = redact ? shownPoint(point) : point;
  let run: PlannedRun = {
    index: 0,
    name: runName(exp, variant, load, shown, repeat),
    variant,
    load,
    ...defined({ sweep: shown.sweep, sweep2: shown.sweep2 }),
    repeat,
    targetKey: targetKeyOf(variant, target),
    target,
    freshTarget: false,
    attack: baseAttack(exp, exp.loads[load], load),
    ...(exp.loads[load].listener === "grpc" ? { listener: "grpc" as const } : {}),
    cooldownMs: 0,
    thresholds: scoped.map((t) => t.expr),
    ...(aborting.length ? { abortOn: aborting } : {}),
    warmupAuto: exp.warmupAuto,
  };
  for (const s of [point.sweep, point.sweep2]) if (s) run = applyParameter(run, s.parameter, s.value);
  return run;
}

/** `point` as outputs show it (results/redact.ts `shownSweepValue`): a secret value as its token. */
function shownPoint(point: Point): Point {
  const shown = (s: SweepPoint | undefined) =>
    s && { parameter: s.parameter, value: shownSweepValue(s.parameter, s.value) };
  return defined({ sweep: shown(point.sweep), sweep2: shown(point.sweep2) });
}

function runName(exp: Experiment, variant: string, load: string, point: Point, repeat: number): string {
  const coordinates = [point.sweep, point.sweep2].filter((s) => s !== undefined)
    .map((s) => `/${s.parameter}=${s.value}`).join("");
  return `${variant}/${load}${coordinates}${exp.repeats > 1 ? `#${repeat + 1}` : ""}`;
}

/** A started target's spec as the runner takes it; proxy upstreams named by target become copies. */
function resolveSpec(exp: Experiment, target: Exclude<FileTarget, { kind: "url" }>): TargetSpec {
  if (target.kind !== "proxy") return structuredClone(target);
  const named = typeof target.upstream === "string" ? exp.targets[target.upstream] : target.upstream;
  const upstream = named.kind === "url" ? { url: named.url } : resolveSpec(exp, named);
  return { ...structuredClone(target), upstream };
}

/** Execution order fixed: indexes, cooldowns and when each target configuration is (re)started. */
function scheduled(exp: Experiment, runs: PlannedRun[]): PlannedRun[] {
  const lastRepeat = new Map<string, number>();
  return runs.map((run, index) => {
    const previous = lastRepeat.get(run.targetKey);
    lastRepeat.set(run.targetKey, run.repeat);
    const fresh = previous === undefined || exp.restart === "per-run" ||
      (exp.restart === "per-repeat" && previous !== run.repeat);
    return {
      ...run,
      index,
      cooldownMs: index === 0 ? 0 : exp.cooldownMs,
      freshTarget: run.target.kind === "spec" && fresh,
    };
  });
}

function searchPlans(exp: Experiment, targets: string[], loads: string[]): SearchPlan[] {
  const search = exp.search;
  if (!search) return [];
  const load = search.load ?? Object.keys(exp.loads)[0];
  if (!loads.includes(load)) return [];
  const { targets: _targets, load: _load, ...fields } = search;
  return targets.filter((t) => !search.targets || search.targets.includes(t)).map((target) => {
    const base = buildRun(exp, target, load, {}, 0);
    const attack = probeAttack(base.attack, search.probeMs);
    return {
      ...fields,
      target,
      load,
      base: { ...base, name: `${target}/${load}/search`, attack },
    };
  });
}

/** Probes run `probeMs`, except count loads and multi-phase rate or ramping-connection loads (own shape). */
function probeAttack(attack: RelativeAttackInput, probeMs: number): RelativeAttackInput {
  const facts = LOAD_MODEL_FACTS[attack.model];
  if (facts.counted || facts.durationIn === "stages") return attack;
  if (facts.durationIn === "phases" && "phases" in attack && attack.phases.length > 1) return attack;
  return withDurationMs(attack, probeMs);
}

/** `plan` with `f` applied to every run and to every search's base run. */
export function mapRuns(plan: Plan, f: (run: PlannedRun) => PlannedRun): Plan {
  return { ...plan, runs: plan.runs.map(f), searches: plan.searches.map((s) => ({ ...s, base: f(s.base) })) };
}

/** Roughly how long the plan takes: warm-ups, measured durations, cooldowns and every possible probe. */
export function estimateDurationMs(plan: Plan): number {
  const runsMs = plan.runs.reduce((sum, run) => sum + run.cooldownMs + runDurationMs(run.attack), 0);
  const searchesMs = plan.searches.reduce(
    (sum, s) => sum + (s.maxProbes + 1) * (plan.experiment.cooldownMs + runDurationMs(s.base.attack)),
    0,
  );
  return runsMs + searchesMs;
}

function runDurationMs(attack: RelativeAttackInput): number {
  const warmupMs = attack.warmupMs ?? 0;
  if ("requests" in attack) return warmupMs + Math.min(attack.durationMs ?? Infinity, pacedMs(attack));
  const durationMs = ("durationMs" in attack ? attack.durationMs : undefined) ?? DEFAULT_DURATION_MS;
  return warmupMs + measuredDurationMs({ ...attack, durationMs });
}

/** A duration range in ms: an idle machine near the low end, a busy one near the high end. */
export type DurationRange = ReturnType<typeof estimateRangeMs>;

/** loadlab's start (plan, preflight) and its end (analysis, report.html), once per plan. */
const PROCESS_MS: [number, number] = [800, 3_000];
/** Per run: worker isolates, generator warm-up, pre-connected pool, results appended. */
const RUN_SETUP_MS: [number, number] = [400, 1_200];
/** Per target process started (built-in, example app, proxy) and per Redis started beside one. */
const PROCESS_START_MS: [number, number] = [500, 1_800];
const REDIS_START_MS: [number, number] = [300, 600];
/** The share of runs whose graceful stop runs out (2 of 12 in cache-burst's quick run). */
const STOPPED_SHARE = 0.25;
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
export function estimateRangeMs(plan: Plan) {
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
