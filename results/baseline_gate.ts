/**
 * @module
 * The relative gate of `--baseline FILE --fail-on "p99 +10%"`: this run's results against a saved
 * baseline results file. Runs are paired by name without the `#repeat` suffix (variant/load/sweep
 * point, the pairing of `report --compare`); per metric (p99, p50, req/s, success) the change is the
 * difference of the means with a 95% confidence interval from Welch's t: over the repeats when both
 * sides have two or more, else over each side's within-run one-second batch means (results/conclude/noise.ts),
 * and the verdict says which. A change is `better`/`worse` only when that interval excludes zero, and a
 * `--fail-on` tolerance fails only a `worse` change whose point estimate is also past the tolerance.
 * A baseline from another machine or build (CPU, cores, loadlab or Deno version) is flagged on every
 * verdict. Runs that stopped early (`incomplete`, also after a threshold's abortOnFail) are left out and
 * listed. Pure: results in, verdicts out.
 */
import type { ResultsFile, RunResult } from "./mod.ts";
import { COMPARE_METRICS, type CompareMetric, runNoise, runValue } from "./conclude/noise.ts";
import { changePct, type MeanCi, meanCi, round4, tQuantile95 } from "./stats.ts";
import { ConfigError } from "../validation/config_error.ts";
import { runVerdict } from "./conclude/run_verdict.ts";
import { requestKind } from "./conclude/ws_storm.ts";
import { selectedRun, type Selector, selectorText, splitSelector } from "./threshold_selector.ts";

/** A parsed `--fail-on`: the metric, how far it may move the bad way, in percent or percentage points. */
export interface FailOn {
  expression: string;
  metric: CompareMetric;
  /** Signed, in the metric's bad direction: +10 for "p99 +10%", -5 for "rps -5%". */
  tolerance: number;
  unit: "%" | "pp";
  /** `p99{name:GET /json} +10%`: judged on the endpoints it selects (results/threshold_selector.ts). */
  selector?: Selector;
}

/** Whether lower values of a metric are better (latency) or higher (req/s, success). */
export const LOWER_IS_BETTER: Record<CompareMetric, boolean> = {
  p50: true,
  p99: true,
  rps: false,
  success: false,
};

const FAIL_ON = /^\s*([A-Za-z0-9]+)\s*([+-])\s*(\d+(?:\.\d+)?)\s*(%|pp)\s*$/;

/** Parses one `--fail-on` expression; throws `ConfigError` naming the problem and the fix. */
export function parseFailOn(expression: string): FailOn {
  const where = `--fail-on "${expression}"`;
  const problem = (message: string) => new ConfigError([{ path: where, message }]);
  const { rest, selector, problem: badSelector } = splitSelector(expression);
  if (badSelector) throw problem(badSelector);
  const m = FAIL_ON.exec(rest);
  if (!m) {
    throw problem(
      `not understood; write it like "p99 +10%", "rps -5%", "success -0.1pp" or "p99{name:GET /json} +10%"`,
    );
  }
  const [, name, sign, number, unit] = m;
  const metric = COMPARE_METRICS.find((x) => x === name);
  if (!metric) throw problem(`unknown metric "${name}"; use one of ${COMPARE_METRICS.join(", ")}`);
  const worseSign = LOWER_IS_BETTER[metric] ? "+" : "-";
  if (sign !== worseSign) {
    throw problem(
      `${metric} gets worse ${worseSign === "+" ? "upward" : "downward"}; write ${worseSign}${number}${unit}`,
    );
  }
  if (unit === "pp" && metric !== "success") {
    throw problem(`pp (percentage points) is for success only; write ${sign}${number}%`);
  }
  return {
    expression,
    metric,
    tolerance: Number(`${sign}${number}`),
    unit: unit as "%" | "pp",
    ...(selector ? { selector } : {}),
  };
}

/** How the noise behind a verdict was measured. */
export type NoiseSource = "repeats" | "within-run";

/** One metric of one paired group. */
export interface MetricVerdict {
  metric: CompareMetric;
  baseline: number;
  current: number;
  /** current - baseline, in the metric's unit (success in percent, so this is in points). */
  diff: number;
  /** Half-width of the 95% confidence interval of `diff`; null when noise could not be measured. */
  diffCi95: number | null;
  /** The change in percent of the baseline, and its interval's half-width in percent. */
  changePct: number;
  changeCi95Pct: number | null;
  verdict: "better" | "same" | "worse" | "unknown";
  noise: NoiseSource;
  /** The `--fail-on` expressions this change fails. */
  failed: string[];
}

/** One paired group: its key, the runs on each side, a verdict per metric. */
export interface GroupVerdict {
  key: string;
  baselineRuns: number;
  currentRuns: number;
  metrics: MetricVerdict[];
  /**
   * Why this pair's numbers cannot pass a `--fail-on` rule ("this run: server-bound"), when a run on
   * either side is flagged (results/conclude/run_verdict.ts); absent when both sides are trusted.
   */
  flagged?: string;
  /** The endpoint selector of the pair's rules (`{name:GET /json}`); absent for the runs as a whole. */
  selector?: string;
}

/** A `--fail-on` rule no trusted pair could check, and why: the gate cannot pass on it. */
export interface UnjudgedRule {
  rule: string;
  reason: string;
}

/** The whole gate. */
export interface GateResult {
  groups: GroupVerdict[];
  /** Groups of this run the baseline has no runs for. */
  unpaired: string[];
  /** Groups of the baseline this run has no runs for (a renamed load, another experiment's file). */
  baselineOnly: string[];
  /**
   * Runs left out on either side because they stopped early (`incomplete`: Ctrl-C, a target that died,
   * a threshold's abortOnFail): their numbers cover part of a run, as the analysis leaves them out too.
   */
  leftOut: string[];
  /** Environment fields that differ ("cpu", "cores", "loadlab", "deno"): every verdict is weak. */
  otherMachine: string[];
  failed: boolean;
  /**
   * The `--fail-on` rules that checked no pair: nothing paired, every pair is flagged, or no trusted
   * pair has a verdict on the rule's metric (no samples, too few intervals for noise). Such a gate did
   * not pass: the command exits 8 (after 7: a rule that fired is the stronger finding).
   */
  unjudged: UnjudgedRule[];
}

/** The pairing key: the run name without its `#repeat` suffix. */
export function pairKey(run: RunResult): string {
  return run.name.replace(/#\d+$/, "");
}

function groupRuns(runs: RunResult[]): Map<string, RunResult[]> {
  const out = new Map<string, RunResult[]>();
  for (const run of runs.filter((r) => !r.probe && !r.incomplete)) {
    const key = pairKey(run);
    out.set(key, [...(out.get(key) ?? []), run]);
  }
  return out;
}

/** The difference of two means with the half-width of its 95% interval (Welch-Satterthwaite df). */
export function welchDiff(a: MeanCi, b: MeanCi): { diff: number; ci95: number | null } {
  const diff = b.mean - a.mean;
  if (a.ci95 === null || b.ci95 === null) return { diff, ci95: null };
  const va = (a.ci95 / tQuantile95(a.n - 1)) ** 2, vb = (b.ci95 / tQuantile95(b.n - 1)) ** 2;
  if (va + vb === 0) return { diff, ci95: 0 };
  const df = (va + vb) ** 2 / (va ** 2 / (a.n - 1) + vb ** 2 / (b.n - 1));
  return { diff, ci95: tQuantile95(Math.max(1, Math.floor(df))) * Math.sqrt(va + vb) };
}

function sideStats(runs: RunResult[], metric: CompareMetric, noise: NoiseSource): MeanCi {
  if (noise === "repeats") return meanCi(runs.map((r) => runValue(r, metric)));
  // One run: its own batch means; the point value stays the run's own figure (p99 of the whole run).
  const within = runNoise(runs, metric);
  return { ...within, mean: meanCi(runs.map((r) => runValue(r, metric))).mean };
}

function metricVerdict(
  before: RunResult[],
  after: RunResult[],
  metric: CompareMetric,
  failOn: FailOn[],
): MetricVerdict {
  const noise: NoiseSource = before.length >= 2 && after.length >= 2 ? "repeats" : "within-run";
  const a = sideStats(before, metric, noise), b = sideStats(after, metric, noise);
  const { diff, ci95 } = welchDiff(a, b);
  const beyond = ci95 !== null && Number.isFinite(diff) && Math.abs(diff) > ci95;
  const worseWay = LOWER_IS_BETTER[metric] ? diff > 0 : diff < 0;
  const verdict: MetricVerdict["verdict"] = ci95 === null || !Number.isFinite(diff)
    ? "unknown"
    : !beyond
    ? "same"
    : worseWay
    ? "worse"
    : "better";
  const pct = changePct(a.mean, b.mean);
  const failed = verdict !== "worse" ? [] : failOn.filter((f) => f.metric === metric).filter((f) => {
    const moved = f.unit === "pp" ? diff : pct;
    return f.tolerance > 0 ? moved > f.tolerance : moved < f.tolerance;
  }).map((f) => f.expression);
  return {
    metric,
    baseline: round4(a.mean),
    current: round4(b.mean),
    diff: round4(diff),
    diffCi95: ci95 === null ? null : round4(ci95),
    changePct: round4(pct),
    changeCi95Pct: ci95 === null || a.mean === 0 ? null : round4((ci95 / Math.abs(a.mean)) * 100),
    verdict,
    noise,
    failed,
  };
}

const ENV_FIELDS = ["cpu", "cores", "loadlab", "deno"] as const;

/** The environment fields on which the two files differ (another machine or another build). */
export function environmentDiff(baseline: ResultsFile, current: ResultsFile): string[] {
  return ENV_FIELDS.filter((f) => baseline.environment[f] !== current.environment[f]);
}

/** The names of the runs (not probes) that stopped early, each after `prefix`. */
function stoppedEarly(runs: RunResult[], prefix: string): string[] {
  return runs.filter((r) => !r.probe && r.incomplete).map((r) => `${prefix}${r.name}`);
}

/**
 * "baseline: server-bound; this run: lost 12" for the flagged runs of a pair, or undefined; a pair whose
 * sides measured different things (HTTP requests against WebSocket messages, a storm against kept
 * connections) is flagged too: its numbers are no change of one service, so it passes no rule.
 */
function pairFlags(base: RunResult[], runs: RunResult[]): string | undefined {
  const flags = (side: string, list: RunResult[]) => {
    const labels = [...new Set(list.map(runVerdict).filter((v) => !v.ok).map((v) => v.label))];
    return labels.length ? [`${side}: ${labels.join(", ")}`] : [];
  };
  const kinds = (list: RunResult[]) => [...new Set(list.map(requestKind))].join(" and ");
  const unlike = kinds(base) !== kinds(runs)
    ? [`baseline measured ${kinds(base)}, this run ${kinds(runs)}`]
    : [];
  const parts = [...unlike, ...flags("baseline", base), ...flags("this run", runs)];
  return parts.length ? parts.join("; ") : undefined;
}

/** The rules no trusted pair has a verdict on, each with the reason that holds for it. */
function unjudgedRules(groups: GroupVerdict[], failOn: FailOn[]): UnjudgedRule[] {
  const trusted = groups.filter((g) => !g.flagged);
  const mine = (f: FailOn, g: GroupVerdict) => g.selector === (f.selector && selectorText(f.selector));
  return failOn.filter((f) =>
    !trusted.some((g) =>
      mine(f, g) && g.metrics.some((m) => m.metric === f.metric && m.verdict !== "unknown")
    )
  ).map((f) => ({
    rule: f.expression,
    reason: groups.length === 0
      ? "no run of this experiment has a run of the same name in the baseline: nothing paired"
      : trusted.length === 0
      ? "every paired run is flagged, on one side or both: untrusted numbers pass no rule"
      : f.selector
      ? `no trusted pair has a verdict on ${f.metric} of ${
        selectorText(f.selector)
      } (no endpoint selected, ` +
        "no samples, or one run a side: an endpoint's latency noise needs repeats)"
      : `no trusted pair has a verdict on ${f.metric} (no samples, or too few intervals to measure noise)`,
  }));
}

/**
 * The pair's verdicts on the endpoints each selector of `failOn` picks (both sides' runs as those
 * endpoints make them), one group per selector, keyed `load {name:...}`.
 */
function endpointGroups(
  key: string,
  base: RunResult[],
  runs: RunResult[],
  failOn: FailOn[],
  flagged: string | undefined,
): GroupVerdict[] {
  const bySelector = new Map<string, FailOn[]>();
  for (const f of failOn) {
    if (f.selector) {
      bySelector.set(selectorText(f.selector), [...(bySelector.get(selectorText(f.selector)) ?? []), f]);
    }
  }
  const out: GroupVerdict[] = [];
  for (const [text, rules] of bySelector) {
    const view = (list: RunResult[]) => list.flatMap((r) => selectedRun(r, rules[0].selector!) ?? []);
    const before = view(base), after = view(runs);
    if (before.length === 0 || after.length === 0) continue;
    out.push({
      key: `${key} ${text}`,
      baselineRuns: before.length,
      currentRuns: after.length,
      metrics: COMPARE_METRICS.map((m) => metricVerdict(before, after, m, rules)),
      ...(flagged ? { flagged } : {}),
      selector: text,
    });
  }
  return out;
}

/** Compares `current` with `baseline`, group by group; `failed` when any `--fail-on` fired. */
export function gateAgainstBaseline(
  baseline: ResultsFile,
  current: ResultsFile,
  failOn: FailOn[],
): GateResult {
  const before = groupRuns(baseline.runs), after = groupRuns(current.runs);
  const groups: GroupVerdict[] = [], unpaired: string[] = [];
  for (const [key, runs] of after) {
    const base = before.get(key);
    if (!base) {
      unpaired.push(key);
      continue;
    }
    const whole = failOn.filter((f) => f.selector === undefined);
    const metrics = COMPARE_METRICS.map((m) => metricVerdict(base, runs, m, whole));
    const flagged = pairFlags(base, runs);
    groups.push({
      key,
      baselineRuns: base.length,
      currentRuns: runs.length,
      metrics,
      ...(flagged ? { flagged } : {}),
    });
    groups.push(...endpointGroups(key, base, runs, failOn, flagged));
  }
  const failed = groups.some((g) => g.metrics.some((m) => m.failed.length > 0));
  const leftOut = [...stoppedEarly(baseline.runs, "baseline's "), ...stoppedEarly(current.runs, "")];
  return {
    groups,
    unpaired,
    baselineOnly: [...before.keys()].filter((key) => !after.has(key)),
    leftOut,
    otherMachine: environmentDiff(baseline, current),
    failed,
    unjudged: unjudgedRules(groups, failOn),
  };
}

/** The unit a metric's values are shown in (success as a percentage; its changes are in points). */
export const METRIC_UNITS: Record<CompareMetric, string> = {
  p50: "ms",
  p99: "ms",
  rps: "req/s",
  success: "%",
};

/** How the interval was measured, for the reader: the repeats, or one run's own intervals. */
export function noiseText(m: MetricVerdict, group: GroupVerdict): string {
  return m.noise === "repeats"
    ? `Welch over ${group.baselineRuns}+${group.currentRuns} repeats`
    : `within-run interval variation: ${group.baselineRuns}+${group.currentRuns} runs, too few repeats for Welch`;
}

/** `worse: +21.3% (95% CI ±4.1%; Welch over 3+3 repeats)`, plus the failed tolerances and the machine flag. */
export function verdictText(m: MetricVerdict, group: GroupVerdict, gate: GateResult): string {
  const label = m.verdict === "same"
    ? "same (within noise)"
    : m.verdict === "unknown"
    ? "no verdict"
    : m.verdict;
  const sign = (x: number) => (x > 0 ? "+" : "");
  const change = m.metric === "success"
    ? `${sign(m.diff)}${m.diff} pp`
    : `${sign(m.changePct)}${m.changePct.toFixed(1)}%`;
  const ci = m.diffCi95 === null
    ? "noise not measurable: too few intervals"
    : `95% CI ±${m.metric === "success" ? `${m.diffCi95} pp` : `${m.changeCi95Pct?.toFixed(1)}%`}`;
  const parts = [`${label}: ${change} (${ci}; ${noiseText(m, group)})`];
  if (m.failed.length) parts.push(`FAILS ${m.failed.join(", ")}`);
  if (gate.otherMachine.length) {
    parts.push(`baseline from another machine/build: ${gate.otherMachine.join(", ")} differ`);
  }
  return parts.join("; ");
}
