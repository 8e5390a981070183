/**
 * @module
 * The `results.analysis` of results.json: runs grouped by variant, load and sweep point with mean and 95% CI,
 * each group's change against the baseline's (`repeats` with two a group, else `within-run`), knees. Pure.
 */
import type { Analysis, RunResult } from "../mod.ts";
import { COMPARE_METRICS, runNoise, runValue, sweepPointText } from "./noise_samples.ts";
import { judgeNoise } from "./noise.ts";
import {
  BEYOND_NOISE_MIN_SE,
  changePct,
  curveAxes,
  findKnee,
  flatShare,
  isCategorical,
  KEPT_UP_SHARE,
  type MeanCi,
  meanCi,
  orderedSweepValues,
  round4,
  stdev,
  type SweepPoint,
  tQuantile95,
} from "../stats.ts";
import { judgeChange, type NotJudged, notJudgedFlags, notJudgedText } from "./judged.ts";

interface AnalyzeOptions {
  /** The variant the others are compared with. */
  baseline?: string;
  /** The p99 limit of the SLO in ms: a sweep's knee is also where p99 first goes over it. */
  sloP99Ms?: number;
}

type Group = Analysis["groups"][number];
type Comparison = Analysis["comparisons"][number];
type Knee = Analysis["knees"][number];

const point = (p: RunResult["sweep"]) => (p ? `${p.parameter}=${p.value}` : "");

/** A run's group: `variant/load[/param=value]...`, or its name without `#repeat` outside an experiment. */
export function analysisGroupKey(run: RunResult): string {
  if (run.variant === undefined && run.load === undefined && !run.sweep) return run.name.replace(/#\d+$/, "");
  return [run.variant ?? "", run.load ?? "", point(run.sweep), point(run.sweep2)].filter((p, i) =>
    i < 2 || p !== ""
  ).join("/");
}

function groupOf(key: string, runs: RunResult[]): Group {
  const first = runs[0];
  const metrics = {} as Group["metrics"];
  for (const m of COMPARE_METRICS) {
    const values = runs.map((r) => runValue(r, m));
    const ci = meanCi(values);
    metrics[m] = { n: ci.n, mean: ci.mean, stdev: stdev(values), ci95: ci.ci95 ?? Number.NaN };
  }
  return {
    key,
    variant: first.variant ?? null,
    load: first.load ?? null,
    sweep: first.sweep ?? null,
    sweep2: first.sweep2 ?? null,
    runs: runs.map((r) => r.name),
    metrics,
  };
}

/** Pairs of (group, baseline group) with the same load and sweep point. */
function baselinePairs(groups: Group[], baseline: string | undefined): Array<[Group, Group]> {
  if (baseline === undefined) return [];
  const bases = groups.filter((g) => g.variant === baseline);
  const pairs: Array<[Group, Group]> = [];
  for (const g of groups) {
    if (g.variant === null || g.variant === baseline) continue;
    const base = bases.find((b) => b.load === g.load && sweepPointText(b) === sweepPointText(g));
    if (base) pairs.push([g, base]);
  }
  return pairs;
}

/** Groups runs, compares them with the baseline and finds the knees of sweeps; `searches` is empty. */
export function analyze(runs: RunResult[], opts: AnalyzeOptions = {}): Analysis {
  const measured = runs.filter((r) => !r.probe && !r.incomplete);
  const byKey = Map.groupBy(measured, analysisGroupKey);
  const groups = [...byKey].map(([key, rs]) => groupOf(key, rs));
  const pairs = baselinePairs(groups, opts.baseline);
  const judged = pairs.length ? pairs.flat() : groups;
  const noiseRule = judged.length > 0 && judged.every((g) => g.runs.length >= 2) ? "repeats" : "within-run";
  const comparisons: Comparison[] = pairs.flatMap(([g, base]) =>
    COMPARE_METRICS.map((metric) => {
      // A change never judged must not read as "within noise": it is stored with why.
      const side = (x: Group) => ({ name: x.variant!, runs: byKey.get(x.key)! });
      const judged = judgeChange(noiseRule, side(g), side(base), metric);
      return {
        group: g.key,
        baselineGroup: base.key,
        metric,
        changePct: round4(changePct(base.metrics[metric].mean, g.metrics[metric].mean)),
        beyondNoise: "beyond" in judged && judged.beyond,
        ...("notJudged" in judged ? { noiseUnknown: true, noiseNotJudged: judged.notJudged } : {}),
      };
    })
  );
  return { noiseRule, groups, comparisons, knees: sweepKnees(measured, opts.sloP99Ms), searches: [] };
}

/** Whether a swept parameter is the requested rate (its knee is where the target stops keeping up). */
export function isRateParameter(parameter: string): boolean {
  return /(^|\.)(rate|ratePerSec|requestedRate)$/i.test(parameter);
}

/** Runs by sweep curve: variant, load and swept parameter, at the second parameter's value. */
export function sweepCurves(runs: RunResult[]): RunResult[][] {
  const curve = (run: RunResult) => {
    const axes = curveAxes(run)!;
    return [run.variant, run.load, axes.axis.parameter, point(axes.at)].join("\u0000");
  };
  return [...Map.groupBy(runs.filter((r) => curveAxes(r)), curve).values()];
}

/** A curve's points, one per swept value: its runs' mean req/s, p99 (`p99Of` each) and requested rate. */
export function curvePoints(runs: RunResult[], p99Of = (r: RunResult) => r.latencyMs.p99): SweepPoint[] {
  const x = (r: RunResult) => curveAxes(r)!.axis.value;
  return orderedSweepValues(runs.map(x)).map((value) => {
    const at = runs.filter((r) => x(r) === value);
    const target = meanCi(at.map((r) => r.targetRps ?? Number.NaN));
    return {
      x: value,
      rps: meanCi(at.map((r) => r.rps)).mean,
      p99Ms: meanCi(at.map(p99Of)).mean,
      targetRps: target.n ? target.mean : null,
    };
  });
}

const requestedOf = (p: SweepPoint) => p.targetRps ?? (p.x as number);
const fellShort = (p: SweepPoint) => p.rps < KEPT_UP_SHARE * requestedOf(p);

/** Why a rate sweep has no knee: every rate kept up, or the first point short (and a dip if recovered). */
function noKneeOfRate(points: SweepPoint[]): string {
  const short = points.find(fellShort);
  if (!short) return "kept up with every requested rate";
  const requested = requestedOf(short);
  const at = points.indexOf(short) === 0 ? "from the lowest rate" : `at ${round4(short.x as number)}`;
  const top = points[points.length - 1];
  const fell = fellShort(top)
    ? "fell short"
    : `kept up again at ${round4(top.x as number)} after falling short`;
  return `${fell} ${at}: achieved ${round4(short.rps)} of the requested ${round4(requested)} req/s ` +
    `(${Math.round((1 - short.rps / requested) * 100)}% short)`;
}

/** Why a curve over a parameter other than the rate cannot have a knee before looking: null when it can. */
function tooFewOrFlat(points: SweepPoint[]): string | null {
  if (points.length < 3) {
    return `no knee: ${points.length} point${points.length === 1 ? "" : "s"} swept, a bend needs 3`;
  }
  const flat = flatShare(points);
  return flat === null ? null : `no knee: req/s stayed within ${Math.round(flat * 100)}% across the sweep`;
}

/** The knee of one curve and why; `bent` says whether a rate point's bend is beyond noise. */
export function kneeOf(
  parameter: string,
  points: SweepPoint[],
  sloP99Ms?: number,
  bent: (index: number) => boolean = () => true,
): { value: number | null; reason: string } {
  if (isCategorical(points.map((p) => p.x))) {
    const values = `${parameter}'s values (${points.map((p) => p.x).join(", ")})`;
    return {
      value: null,
      reason: `no knee: ${values} are categories, not a scale; compare them side by side`,
    };
  }
  const isRate = isRateParameter(parameter);
  const fmt = (x: number | string) => String(typeof x === "number" ? round4(x) : x);
  // Too few points or a flat req/s has no bend to find; p99 over the SLO still places a knee there.
  const noBend = isRate ? null : tooFewOrFlat(points);
  let index = noBend === null ? findKnee(points, isRate, bent) : null;
  let reason = "";
  if (index !== null) {
    const next = points[index + 1];
    reason = !isRate
      ? `largest bend of req/s over ${parameter} (Kneedle)`
      : fellShort(next)
      ? `achieved ${fmt(next.rps)} req/s, below 95% of the requested ${fmt(requestedOf(next))}, ` +
        `at ${fmt(next.x)}`
      : `p99 ${fmt(next.p99Ms)} ms, over 3x the lowest rate's beyond noise, at ${fmt(next.x)}`;
  }
  const over = sloP99Ms === undefined ? -1 : points.findIndex((p) => p.p99Ms > sloP99Ms);
  if (over === 0) {
    return { value: null, reason: `p99 over the SLO's ${fmt(sloP99Ms!)} ms from the lowest value` };
  }
  if (over > 0 && (index === null || over - 1 < index)) {
    index = over - 1;
    const at = points[over];
    reason = `p99 ${fmt(at.p99Ms)} ms, over the SLO's ${fmt(sloP99Ms!)} ms, at ${fmt(at.x)}`;
  }
  if (index === null) {
    const why = isRate ? noKneeOfRate(points) + unbentText(points, bent) : "no clear bend in req/s";
    return { value: null, reason: noBend ?? why };
  }
  return { value: points[index].x as number, reason };
}

function notJudgedPoints(curve: RunResult[]): NotJudged[] {
  const x = (r: RunResult) => curveAxes(r)!.axis.value;
  const values = orderedSweepValues(curve.map(x));
  if (isCategorical(values)) return [];
  return values.map((value) => ({
    value: value as number,
    flags: notJudgedFlags(curve.filter((r) => x(r) === value)),
  }))
    .filter((p) => p.flags.length > 0);
}

/** The knee of one curve among its judged points only: a bend a flagged point made is named, not claimed. */
function curveKnee(curve: RunResult[], parameter: string, sloP99Ms?: number) {
  const skipped = notJudgedPoints(curve);
  const knee = (runs: RunResult[]) => {
    const points = curvePoints(runs);
    const bent = isRateParameter(parameter) ? bentBeyondNoise(runs, points) : undefined;
    return kneeOf(parameter, points, sloP99Ms, bent);
  };
  if (skipped.length === 0) return knee(curve);
  const note = notJudgedText(skipped);
  const judged = curve.filter((r) => !skipped.some((p) => p.value === curveAxes(r)!.axis.value));
  if (judged.length === 0) return { value: null, reason: `no knee: every point was flagged (${note})` };
  const found = knee(judged);
  const among = found.value === null ? " among the points judged" : "";
  return { value: found.value, reason: `${found.reason}${among} (${note})` };
}

function sweepKnees(runs: RunResult[], sloP99Ms?: number): Knee[] {
  return sweepCurves(runs).map((curve) => {
    const first = curve[0];
    const axes = curveAxes(first)!;
    const parameter = axes.axis.parameter;
    const knee = curveKnee(curve, parameter, sloP99Ms);
    const at = axes.at ? ` (at ${point(axes.at)})` : "";
    return {
      variant: first.variant ?? null,
      load: first.load ?? null,
      parameter,
      value: knee.value,
      reason: knee.reason + at,
    };
  });
}

/** The achieved rate of a point's runs: their repeats' values, else their batch means. */
function achieved(runs: RunResult[]): MeanCi {
  return runs.length >= 2 ? meanCi(runs.map((r) => r.rps)) : runNoise(runs, "rps");
}

/** How many standard errors `m` lies below `bar`; 0 when it cannot tell (fewer than three values). */
function errorsBelow(m: MeanCi, bar: number): number {
  if (m.ci95 === null || m.n < 3) return 0;
  const se = m.ci95 / tQuantile95(m.n - 1);
  return se > 0 ? (bar - m.mean) / se : bar > m.mean ? Infinity : 0;
}

/** Whether a rate curve's point failed beyond noise: under 95% of its rate, or p99 past 3x the lowest's. */
function bentBeyondNoise(curve: RunResult[], points: SweepPoint[]): (index: number) => boolean {
  const at = (i: number) => curve.filter((r) => curveAxes(r)!.axis.value === points[i].x);
  return (index) => {
    const p = points[index], runs = at(index);
    if (fellShort(p)) {
      return errorsBelow(achieved(runs), KEPT_UP_SHARE * requestedOf(p)) >= BEYOND_NOISE_MIN_SE;
    }
    const lowest = at(0);
    const rule = runs.length >= 2 && lowest.length >= 2 ? "repeats" : "within-run";
    const judged = judgeNoise(rule, runs, lowest, "p99");
    return "beyond" in judged && judged.beyond;
  };
}

/** The first rate-curve point short of its rate or over 3x the lowest p99 whose bend is within noise. */
function unbentText(points: SweepPoint[], bent: (index: number) => boolean): string {
  const i = points.findIndex((p, i) => i > 0 && !bent(i) && (fellShort(p) || p.p99Ms > 3 * points[0].p99Ms));
  return i < 0 ? "" : ` (the bend at ${round4(points[i].x as number)} is within what noise can do)`;
}
