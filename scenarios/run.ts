/**
 * @module
 * Executes a `Plan`: for each planned run, its target up (started, shared or restarted by
 * `run_targets.ts`), the cooldown, the attack with telemetry and target counters, `warmup: auto` and
 * per-phase statistics, and the result appended to `results.json` and `report.html` at once. Then the
 * capacity searches (short probe runs), the analysis and the thresholds, and the file marked complete.
 * Ctrl-C (the signal) ends the run under way gracefully, keeps it marked `incomplete` and stops; a
 * target that cannot start or dies throws `TargetFailedError` with its log tail, finished runs kept.
 * Every started target is stopped before `runPlan` returns or throws.
 */
import { analyze } from "../results/conclude/analysis.ts";
import { cutWarmup, phaseStats } from "../results/interval_stats.ts";
import { estimateDurationMs } from "./plan.ts";
import { applyParameter } from "./plan_attack.ts";
import type { Plan, PlannedRun, SearchPlan } from "./plan_types.ts";
import { ExperimentOutput, type RenderReport } from "./run_output.ts";
import { type RunTarget, TargetFailedError, TargetPool } from "./run_targets.ts";
import { saveRunProfiles, startRunProfiles } from "./run_profiles.ts";
import { counterDeltas, type TargetCounters, warmupSnapshot } from "./run_counters.ts";
import { parseSlo, searchCapacity, sloP99Ms } from "./search.ts";
import type { Analysis, AttackProgress, ExperimentInfo, RunResult } from "../results/mod.ts";
import { runAttack } from "../runner/attack.ts";
import type { RunSteering } from "../runner/steering.ts";
import { requestLogError, requestLogPath } from "../runner/load/request_log.ts";
import {
  type AttackConfig,
  type AttackConfigInput,
  parseAttackConfig,
  type RelativeAttackInput,
} from "../runner/config.ts";
import type { Threshold } from "../results/thresholds.ts";
import { checkSelectors } from "../results/threshold_selector.ts";
import { endpointTable } from "../runner/endpoint_table.ts";
import { abortRules, judgeThresholds, parseAllThresholds } from "./run_thresholds.ts";
import { startTelemetry, type TakenProfile } from "../targets/mod.ts";
import { coldStartRequests, measureColdStart } from "./cold_start.ts";
import { sleepUnlessAborted } from "../system/sleep.ts";
import type { IntervalDelta } from "../results/export/interval_delta.ts";

/** Progress callbacks for the CLI. */
export interface RunPlanHooks {
  /** `i` is 0-based within the `n` runs executed now (resumed runs excluded); `etaMs` covers them all. */
  onRunStart?(run: PlannedRun, i: number, n: number, etaMs: number): void;
  onProgress?(p: AttackProgress): void;
  /** The run's target telemetry so far, readable while it runs (the live dashboard samples it). */
  onTelemetry?(peek: () => NonNullable<RunResult["telemetry"]>): void;
  /** `result` as results.json shows it: secrets redacted unless kept (`ExperimentOutput.shown`). */
  onRunEnd?(result: RunResult, run: PlannedRun): void;
  /**
   * Each interval of the run under way as the engine finishes it (runner/attack.ts `onInterval`), with
   * the run's target telemetry so far (null for a running server): for metrics outputs. Queue only.
   */
  onInterval?(
    delta: IntervalDelta,
    run: PlannedRun,
    telemetry: (() => NonNullable<RunResult["telemetry"]>) | null,
  ): void;
}

export interface RunPlanOptions {
  outDir: string;
  /** Keep the complete runs of `outDir/results.json` and run only the others. */
  resume?: boolean;
  /** Ctrl-C: the run under way stops gracefully and is kept as incomplete. */
  signal?: AbortSignal;
  hooks?: RunPlanHooks;
  /** What results.json says about the experiment beyond its name (source, file, preset, quick). */
  experiment?: Partial<ExperimentInfo>;
  /** Draws report.html from the results so far; written beside results.json after every run. */
  renderReport: RenderReport;
  /** `--no-redact` (or `redact: false` in the file): outputs keep secrets as they are. */
  keepSecrets?: boolean;
  /** Live steering of each run under way (the dashboard's controls, `loadlab steer`). */
  steering?: RunSteering;
}

export interface RunPlanOutcome {
  results: ExperimentOutput["results"];
  resultsPath: string;
  reportPath: string;
  interrupted: boolean;
  /** Runs taken from the file being resumed. */
  resumed: number;
  /**
   * The one writer of results.json and report.html: what the command learns after the plan (what the
   * metrics outputs delivered) goes in with `update`, so both files show it.
   */
  output: ExperimentOutput;
}

/** Runs every planned run, the searches and the analysis; see the module comment. */
export async function runPlan(plan: Plan, opts: RunPlanOptions): Promise<RunPlanOutcome> {
  const thresholds = parseAllThresholds(plan);
  const exp = plan.experiment;
  const output = await ExperimentOutput.open(
    opts.outDir,
    {
      name: exp.name,
      ...(exp.description ? { description: exp.description } : {}),
      ...(exp.study ? { study: exp.study } : {}),
      ...(exp.baseline ? { baseline: exp.baseline } : {}),
      ...(exp.expect?.length ? { expect: exp.expect } : {}),
      plannedRuns: plan.runs.length,
      ...opts.experiment,
    },
    opts.resume ?? false,
    opts.renderReport,
    opts.keepSecrets ?? false,
  );
  const done = output.completedNames();
  const todo = plan.runs.filter((r) => !done.has(r.name));
  const pool = new TargetPool({ logDir: `${opts.outDir}/logs`, signal: opts.signal });
  const searchKeys = new Set(plan.searches.map((s) => s.base.targetKey));
  // A threshold with abortOnFail stopped a run: as k6 aborts the whole test, the runs after it are not run.
  let notRun: string[] | undefined;
  try {
    await output.write();
    for (const [i, run] of todo.entries()) {
      const etaMs = estimateDurationMs({ ...plan, runs: todo.slice(i) });
      opts.hooks?.onRunStart?.(run, i, todo.length, etaMs);
      const result = await executeRun(run, pool, opts, exp, thresholds);
      if (!result) break;
      const died = await pool.checkAlive(run);
      // The run line and the dashboard show the run as results.json holds it: `incomplete` when it died.
      const marked = died ? { ...result, incomplete: true } : result;
      opts.hooks?.onRunEnd?.(await output.append(marked), run);
      if (died) throw died;
      if (result.abortedBy) notRun = todo.slice(i + 1).map((r) => r.name);
      if (result.incomplete) break;
      const needed = new Set([...todo.slice(i + 1).map((r) => r.targetKey), ...searchKeys]);
      await pool.keepOnly(needed);
    }
    if (!opts.signal?.aborted) await finish({ plan, output, pool, opts }, thresholds, notRun);
  } catch (err) {
    if (err instanceof TargetFailedError) err.keptIn = output.resultsPath;
    if (!(err instanceof Interrupted)) throw err;
  } finally {
    await pool.stopAll();
  }
  return {
    results: output.results,
    resultsPath: output.resultsPath,
    reportPath: output.reportPath,
    interrupted: opts.signal?.aborted ?? false,
    resumed: plan.runs.length - todo.length,
    output,
  };
}

/** Ctrl-C during a capacity search: the bisection cannot go on, the probes so far are in the file. */
class Interrupted extends Error {
  override name = "Interrupted";
}

/** What the end of an experiment works with. */
interface RunContext {
  plan: Plan;
  output: ExperimentOutput;
  pool: TargetPool;
  opts: RunPlanOptions;
}

/**
 * Searches, analysis, thresholds and `complete: true`, written once more. After a stop by `abortOnFail`
 * (`notRun` given) no search runs, the runs not started are listed and the file is not complete.
 */
async function finish(ctx: RunContext, thresholds: Map<string, Threshold>, notRun?: string[]): Promise<void> {
  const { plan, output } = ctx;
  const searches: Analysis["searches"] = [];
  for (const search of notRun ? [] : plan.searches) {
    searches.push(await searchCapacity(search, (value) => probe(search, value, ctx)));
  }
  const runs = output.results.runs.filter((r) => !r.probe);
  const slo = plan.experiment.search ? sloP99Ms(parseSlo(plan.experiment.search.slo)) : undefined;
  const analysis = analyze(runs, { baseline: plan.experiment.baseline, sloP99Ms: slo });
  await output.update({
    analysis: { ...analysis, searches },
    thresholds: judgeThresholds(plan, thresholds, runs),
    complete: notRun === undefined,
    // Undefined clears the list of an earlier aborted invocation on --resume.
    notRun,
  });
}

/** One short run of a capacity search at `value`, appended to the file as a probe. */
async function probe(search: SearchPlan, value: number, ctx: RunContext): Promise<RunResult> {
  const varied = applyParameter(search.base, search.parameter, value);
  const count = ctx.output.results.runs.filter((r) => r.probe).length;
  const run: PlannedRun = {
    ...varied,
    name: `${search.base.name}/${search.parameter}=${value}#${count + 1}`,
    cooldownMs: ctx.plan.experiment.cooldownMs,
    thresholds: [],
    warmupAuto: false,
  };
  const result = await executeRun(run, ctx.pool, ctx.opts, ctx.plan.experiment, new Map());
  if (!result) throw new Interrupted();
  const died = await ctx.pool.checkAlive(run);
  const marked: RunResult = {
    ...result,
    probe: true,
    sweep: { parameter: search.parameter, value },
    ...(died ? { incomplete: true } : {}),
  };
  ctx.opts.hooks?.onRunEnd?.(await ctx.output.append(marked), run);
  if (died) throw died;
  if (marked.incomplete) throw new Interrupted();
  return marked;
}

/**
 * Runs one planned run (its requests logged with `exp.log`, a fresh target's cold start probed with
 * `exp`'s `coldStartRequests`); null when Ctrl-C came before its load started.
 */
async function executeRun(
  run: PlannedRun,
  pool: TargetPool,
  opts: RunPlanOptions,
  exp: Plan["experiment"],
  thresholds: Map<string, Threshold>,
): Promise<RunResult | null> {
  if (run.cooldownMs > 0) await sleepUnlessAborted(run.cooldownMs, opts.signal);
  if (opts.signal?.aborted) return null;
  const target = await pool.acquire(run);
  if (!target || opts.signal?.aborted) return null;
  const logFile = exp.log ? requestLogPath(opts.outDir, run.name) : undefined;
  if (logFile) await Deno.mkdir(`${opts.outDir}/requests`, { recursive: true });
  const config = parseAttackConfig({
    ...rebase(trustTargetCa(run.attack, target.running?.caFile), target.url),
    ...(logFile ? { logFile } : {}),
  });
  // An endpoint selector that picks none of this run's endpoints: exit 2 naming them, before its load
  // (a script's endpoints are named only as it runs: judged after it, where one matching none fails).
  if (!config.script) {
    checkSelectors(run.thresholds.map((expr) => thresholds.get(expr)!), endpointTable(config).endpoints);
  }
  const coldStart = target.startedNow && target.running
    ? await measureColdStart(target.running, target.startedNow, config, coldStartRequests(exp), opts.signal)
    : null;
  const statsBefore = await target.stats();
  const telemetry = target.running ? startTelemetry(target.running, { intervalMs: config.intervalMs }) : null;
  await telemetry?.ready;
  if (telemetry) opts.hooks?.onTelemetry?.(telemetry.peek);
  const warmupEnd = warmupSnapshot(target, config.warmupMs);
  const onInterval = opts.hooks?.onInterval;
  const peek = telemetry ? telemetry.peek : null;
  const profiling = await startRunProfiles(target);
  let loadStartEpochMs = profiling?.startedAtEpochMs ?? 0;
  let attack: RunResult;
  let series: RunResult["telemetry"];
  let taken: TakenProfile[] = [];
  try {
    attack = await runAttack(config, {
      name: run.name,
      onProgress: opts.hooks?.onProgress,
      onStart: (at) => {
        loadStartEpochMs = at;
        warmupEnd.onStart?.(at);
      },
      signal: opts.signal,
      abortOn: abortRules(run, thresholds, config.segment !== undefined),
      ...(opts.steering ? { steering: opts.steering } : {}),
      ...(onInterval ? { onInterval: (delta: IntervalDelta) => onInterval(delta, run, peek) } : {}),
    });
  } catch (err) {
    throw (logFile && requestLogError(err, logFile)) || err;
  } finally {
    series = telemetry?.stop();
    warmupEnd.cancel();
    taken = await profiling?.stop() ?? [];
  }
  const counters = await counterDeltas(statsBefore, target, await warmupEnd.stats());
  const loadStartUs = Math.max(0, loadStartEpochMs - (profiling?.startedAtEpochMs ?? 0)) * 1000;
  const profiles = taken.length ? await saveRunProfiles(taken, opts.outDir, run.name, loadStartUs) : [];
  const result = {
    ...completeRunResult(attack, run, config, target, series, counters),
    ...(coldStart ? { coldStart } : {}),
    ...(profiles.length ? { profiles } : {}),
  };
  return opts.signal?.aborted ? { ...result, incomplete: true } : result;
}

/** Adds the experiment's coordinates, telemetry, counters, the auto warm-up cut and phases to a run. */
function completeRunResult(
  attack: RunResult,
  run: PlannedRun,
  config: AttackConfig,
  target: RunTarget,
  telemetry: RunResult["telemetry"],
  counters: TargetCounters,
): RunResult {
  const targetStats = counters.whole;
  let result: RunResult = {
    ...attack,
    variant: run.variant,
    load: run.load,
    ...(run.sweep ? { sweep: { ...run.sweep } } : {}),
    ...(run.sweep2 ? { sweep2: { ...run.sweep2 } } : {}),
    repeat: run.repeat,
    ...(telemetry?.length ? { telemetry } : {}),
    targetInfo: target.info,
    ...(Object.keys(targetStats).length ? { targetStats } : {}),
    ...(counters.measured && Object.keys(counters.measured).length
      ? { targetStatsMeasured: counters.measured }
      : {}),
  };
  // warmup: auto cuts at the stabilization time; a run that never stabilized keeps everything (and
  // says so with `warmupNotReached`), one stable from the start needs no cut.
  const stableAtMs = result.stabilizedAtMs;
  if (run.warmupAuto && stableAtMs !== null) {
    result = { ...(stableAtMs > 0 ? cutWarmup(result, stableAtMs) : result), warmupAuto: true };
  } else if (run.warmupAuto) {
    result = { ...result, warmupNotReached: true };
  }
  if (config.model === "rate" && config.phases) {
    const spans = config.phases.map((p, i) => ({
      name: p.name ?? `phase ${i + 1}`,
      durationMs: p.durationMs,
    }));
    result = { ...result, phases: phaseStats(result, spans) };
  }
  return result;
}

/** Counter changes over the run (proxy hits, misses, ...), from the target's totals before and after. */

/**
 * The attack config of a run against `baseUrl`: request paths in the plan are relative to the target's
 * base URL, and the engine joins a path to the URL's origin, so a base path (`http://host/app`) is
 * prefixed to every request path and flow step here.
 */
/**
 * A self-signed HTTPS target's CA file becomes the load's `caFile` unless the load names one of its own
 * or skips verification: the load verifies the target as a client of a real deployment would.
 */
function trustTargetCa(attack: RelativeAttackInput, caFile: string | undefined): RelativeAttackInput {
  const tls = attack.tls;
  if (caFile === undefined || tls?.caFile !== undefined || tls?.insecure) return attack;
  return { ...attack, tls: { ...tls, caFile } } as RelativeAttackInput;
}

export function rebase(attack: RelativeAttackInput, baseUrl: string): AttackConfigInput {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, "");
  if (attack.ws !== undefined) {
    // A WebSocket load: the target's origin as ws: or wss:, with the load's path.
    const scheme = base.protocol === "https:" || base.protocol === "wss:" ? "wss:" : "ws:";
    return { ...attack, url: `${scheme}//${base.host}${prefix}${attack.ws.path ?? "/"}` };
  }
  const url = `${base.origin}/`;
  if (!prefix) return { ...attack, url };
  const requestMix = attack.requestMix?.map((r) => ({ ...r, path: prefix + (r.path ?? "/") }));
  const flows = attack.flows?.map((f) => ({
    ...f,
    steps: f.steps.map((s) =>
      "request" in s
        ? { ...s, request: { ...s.request, path: prefix + (s.request.path ?? "/") } }
        : "ws" in s && s.ws.connect !== undefined
        ? { ...s, ws: { ...s.ws, connect: prefix + s.ws.connect } }
        : s
    ),
  }));
  return { ...attack, url, ...(requestMix ? { requestMix } : {}), ...(flows ? { flows } : {}) };
}
