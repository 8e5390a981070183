/**
 * @module
 * Runs a `Plan` into its output files; a capacity search bisects for its SLO's largest value.
 */
import { analyze } from "../../results/conclude/analysis.ts";
import { estimateDurationMs } from "../plan/plan.ts";
import { applyParameter } from "../plan/attack.ts";
import type { Plan, PlannedRun, SearchPlan } from "../plan/types.ts";
import { ExperimentOutput, type RenderReport } from "./output.ts";
import { TargetFailedError, TargetPool } from "./targets.ts";
import type { Analysis, ExperimentInfo, RunResult } from "../../results/mod.ts";
import { evaluateThresholds, parseThreshold, type Threshold } from "../../results/thresholds/threshold.ts";
import { judgeThresholds, parseAllThresholds } from "./thresholds.ts";
import { executeRun, type RunHooks, type RunOptions, StoppedRun } from "./one.ts";
import { ConfigError } from "../../validation/config_error.ts";
import { splitSlo } from "../schema/checks.ts";
import { capacityQualifiers } from "../../results/conclude/capacity.ts";

/** Progress callbacks for the CLI: before and after each run, and those of the run under way. */
export interface RunPlanHooks extends RunHooks {
  /** `i` is 0-based within the `n` runs executed now (resumed runs excluded); `etaMs` covers them all. */
  onRunStart?(run: PlannedRun, i: number, n: number, etaMs: number): void;
  /** `result` as results.json shows it: secrets redacted unless kept (`ExperimentOutput.shown`). */
  onRunEnd?(result: RunResult, run: PlannedRun): void;
}

interface RunPlanOptions extends RunOptions {
  /** Keep the complete runs of `outDir/results.json` and run only the others. */
  resume?: boolean;
  hooks?: RunPlanHooks;
  /** What results.json says about the experiment beyond its name (source, file, preset, quick). */
  experiment?: Partial<ExperimentInfo>;
  /** Draws report.html from the results so far; written beside results.json after every run. */
  renderReport: RenderReport;
  /** `--no-redact` (or `redact: false` in the file): outputs keep secrets as they are. */
  keepSecrets?: boolean;
  /** Told the writer of results.json as it opens (a second Ctrl-C writes it before quitting). */
  onOutput?: (output: ExperimentOutput) => void;
}

export interface RunPlanOutcome {
  results: ExperimentOutput["results"];
  interrupted: boolean;
  /** Runs taken from the file being resumed. */
  resumed: number;
  /** The one writer of results.json and report.html; what the command learns later goes in with `update`. */
  output: ExperimentOutput;
}

/** Runs every planned run, the searches and the analysis; see the module comment. */
export async function runPlan(plan: Plan, opts: RunPlanOptions): Promise<RunPlanOutcome> {
  const thresholds = parseAllThresholds(plan);
  const exp = plan.experiment;
  const output = await openOutput(plan, opts);
  opts.onOutput?.(output);
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
      if (result instanceof StoppedRun) {
        await output.update({ stoppedIn: `${result.stoppedIn} (run ${run.name})` });
        break;
      }
      await keep({ plan, output, pool, opts }, run, result);
      if (result.abortedBy) notRun = todo.slice(i + 1).map((r) => r.name);
      // Stopped by Ctrl-C or abortOnFail: no run after it. A run cut otherwise stays, flagged incomplete.
      if (notRun !== undefined || opts.signal?.aborted) break;
      const needed = new Set([...todo.slice(i + 1).map((r) => r.targetKey), ...searchKeys]);
      await pool.keepOnly(needed);
    }
    if (!opts.signal?.aborted) await finish({ plan, output, pool, opts }, thresholds, notRun);
  } catch (err) {
    if (err instanceof TargetFailedError && output.results.runs.length) err.keptIn = output.resultsPath;
    if (!(err instanceof Interrupted)) throw err;
  } finally {
    await pool.stopAll();
    output.close();
  }
  return {
    results: output.results,
    interrupted: opts.signal?.aborted ?? false,
    resumed: plan.runs.length - todo.length,
    output,
  };
}

/** results.json and report.html in `opts.outDir`, new or resumed, headed with what the plan says. */
function openOutput(plan: Plan, opts: RunPlanOptions): Promise<ExperimentOutput> {
  const exp = plan.experiment;
  return ExperimentOutput.open(
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
}

/** Ctrl-C during a capacity search: the bisection cannot go on, the probes so far are in the file. */
class Interrupted extends Error {
  override name = "Interrupted";
}

interface RunContext {
  plan: Plan;
  output: ExperimentOutput;
  pool: TargetPool;
  opts: RunPlanOptions;
}

/** Searches, analysis, thresholds and `complete: true`, written once more. */
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
  if (result instanceof StoppedRun) throw new Interrupted();
  const marked = await keep(ctx, run, {
    ...result,
    probe: true,
    sweep: { parameter: search.parameter, value },
  });
  // Ctrl-C ends the search; a probe cut otherwise is judged with its flags (capacity.ts qualifies the value).
  if (ctx.opts.signal?.aborted) throw new Interrupted();
  return marked;
}

/** Appends a run's result (`incomplete` when its target died, whose error is then thrown), told the hooks. */
async function keep(ctx: RunContext, run: PlannedRun, result: RunResult): Promise<RunResult> {
  const died = await ctx.pool.checkAlive(run);
  const marked = died ? { ...result, incomplete: true } : result;
  ctx.opts.hooks?.onRunEnd?.(await ctx.output.append(marked), run);
  if (died) throw died;
  return marked;
}

/** What `searchCapacity` needs of a plan (the whole `SearchPlan` fits). */
export type SearchSpec = Pick<
  SearchPlan,
  "parameter" | "target" | "load" | "range" | "slo" | "precision" | "maxProbes"
>;

type SearchResult = Analysis["searches"][number];

/** Parses an SLO: threshold expressions joined by `and`, each in `--threshold`'s grammar. */
export function parseSlo(slo: string): Threshold[] {
  const parts = splitSlo(slo).map((p) => p.trim());
  if (parts.length === 0) {
    throw new ConfigError([{
      path: `slo "${slo}"`,
      message: `write it like "p99 < 100ms and success >= 99.9%"`,
    }]);
  }
  return parts.map((part) => {
    const threshold = parseThreshold(part);
    if (threshold.run !== undefined) {
      throw new ConfigError([{
        path: `slo "${slo}"`,
        message: `"${part}" names a run; an SLO applies to every probe, drop "${threshold.run}:"`,
      }]);
    }
    return threshold;
  });
}

/** The p99 limit of an SLO in ms (for the knees of sweeps), when it has one. */
export function sloP99Ms(thresholds: Threshold[]): number | undefined {
  return thresholds.find((t) => t.metric === "p99" && (t.op === "<" || t.op === "<="))?.value;
}

/** Whether a probe meets every part of the SLO; a probe without a single response never does. */
export function meetsSlo(thresholds: Threshold[], run: RunResult): boolean {
  if (run.requests === 0 || run.incomplete) return false;
  return evaluateThresholds(thresholds, [run]).every((r) => r.ok);
}

/** A value halfway between; whole numbers stay whole (rates, connections) when the ends are whole. */
function midpoint(lo: number, hi: number): number {
  const mid = (lo + hi) / 2;
  return Number.isInteger(lo) && Number.isInteger(hi) ? Math.round(mid) : mid;
}

/** Runs the bisection (see the module comment); `probe(value)` runs one short probe at `value`. */
export async function searchCapacity(
  plan: SearchSpec,
  probe: (value: number) => Promise<RunResult>,
): Promise<SearchResult> {
  const slo = parseSlo(plan.slo);
  const probes: SearchResult["probes"] = [];
  const ran: RunResult[] = [];
  const check = async (value: number) => {
    const run = await probe(value);
    ran.push(run);
    const ok = meetsSlo(slo, run);
    probes.push({ value, run: run.name, ok });
    return { value, run: run.name, ok };
  };
  const base = { parameter: plan.parameter, target: plan.target, load: plan.load, slo: plan.slo };
  const found = (at: Pick<SearchResult, "value" | "low" | "high" | "confirmRun">): SearchResult => {
    const result = { ...base, ...at, probes };
    return { ...result, qualifiers: capacityQualifiers(result, ran) };
  };
  const [rangeLo, rangeHi] = plan.range;
  let low = await check(rangeLo);
  if (!low.ok) return found({ value: null, low: null, high: probeSummary(low), confirmRun: null });
  let high: { value: number; run: string } | null = null;
  if (rangeHi > rangeLo) {
    const top = await check(rangeHi);
    if (top.ok) low = top;
    else high = top;
  }
  while (high && high.value - low.value > plan.precision * low.value && probes.length < plan.maxProbes) {
    const mid = midpoint(low.value, high.value);
    if (mid <= low.value || mid >= high.value) break;
    const at = await check(mid);
    if (at.ok) low = at;
    else high = at;
  }
  const confirm = await check(low.value);
  if (confirm.ok) {
    return found({
      value: low.value,
      low: probeSummary(low),
      high: high && probeSummary(high),
      confirmRun: confirm.run,
    });
  }
  const below = probes.filter((p) => p.ok && p.value < low.value).sort((a, b) => b.value - a.value)[0];
  return found({
    value: below?.value ?? null,
    low: below ? probeSummary(below) : null,
    high: probeSummary(confirm),
    confirmRun: confirm.run,
  });
}

/** The value and run name of a probe, without its verdict: how the bounds of a search are stored. */
function probeSummary(p: { value: number; run: string }): { value: number; run: string } {
  return { value: p.value, run: p.run };
}
