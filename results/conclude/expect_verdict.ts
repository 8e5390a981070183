/**
 * @module
 * Whether these runs reproduced an expected direction (`expect:`): at each judged point both variants ran,
 * the difference points the expected way beyond noise; else "not reproduced here" or "not judged". Pure.
 */
import type { ResultsFile, RunResult } from "../mod.ts";
import type { Expectation } from "./expectation.ts";
import { judgeNoise, type NoiseJudgement, normalErrors, standardErrorsText } from "./noise.ts";
import { higherIsBetter, metricValue, pointKey } from "./noise_samples.ts";
import { loadlabFlags } from "./judged.ts";
import { disturbedNote } from "./own_waits.ts";
import { BEYOND_NOISE_MIN_SE, changePct, meanCi } from "../stats.ts";
import { formatDurationMs, formatNumber } from "../text_format.ts";

/** The verdict on one expectation: its sentence and how the page colours it. */
interface ExpectVerdict {
  text: string;
  /** good: reproduced everywhere; bad: not reproduced (opposite, or within noise); warn: not judged. */
  tone: "good" | "bad" | "warn" | "plain";
}

/** One load and sweep point both variants ran: the two means and what was concluded there. */
interface PointVerdict {
  point: string;
  better: number;
  than: number;
  /** "reproduced", "opposite", "within noise", or "not judged: <why>". */
  outcome: string;
  /** The test and its margin, when the noise rule judged the point. */
  how: string | null;
}

const MAX_SHOWN_POINTS = 3;

/** Instances of a run: recorded ones, else 1 for a built-in target, else unknown (null); page-inlined. */
export function instancesOf(run: Pick<RunResult, "targetInfo">): number | null {
  const n = run.targetInfo?.instances;
  if (typeof n === "number") return n;
  return run.targetInfo?.kind === "builtin" ? 1 : null;
}

/** Why the condition `needs` names did not hold, or null. */
function unmetNeed(e: Expectation, better: RunResult[], than: RunResult[], cores: number): string | null {
  if (e.cores !== undefined && cores < e.cores) {
    return `needs ${e.cores} cores, this machine has ${cores}: run it on ${e.cores} cores or more`;
  }
  if (e.needs !== "instances") return null;
  const most = (runs: RunResult[]) => Math.max(...runs.map((r) => instancesOf(r) ?? Number.NaN));
  const [b, t] = [most(better), most(than)];
  if (Number.isNaN(b) || Number.isNaN(t)) return "the runs do not record how many instances served them";
  if (b <= t) {
    const ran = `${e.better} ran ${b} instance${b === 1 ? "" : "s"} and ${e.than} ${t}`;
    return `${ran}: the direction needs more instances in ${e.better}`;
  }
  if (cores <= b) {
    return `${e.better}'s ${b} instances need a core each besides the load generator's, and this machine ` +
      `has ${cores}`;
  }
  return null;
}

const meanOf = (runs: RunResult[], e: Expectation) => meanCi(runs.map((r) => metricValue(r, e.metric))).mean;

/** Whether a better-side run's flags can only have worked against the direction. */
function onlyAgainst(run: RunResult, metric: Expectation["metric"]): boolean {
  const flags = loadlabFlags([run]);
  if (flags.length !== 1 || flags[0] !== "generator-bound") return false;
  return metric === "rps" || (run.targetRps !== null && run.droppedSends === 0);
}

/** "cached/high is generator-bound" for each run whose flags keep the point from being judged. */
function untrustedRuns(e: Expectation, better: RunResult[], than: RunResult[]): string[] {
  return [...better, ...than].flatMap((r) => {
    const flag = loadlabFlags([r])[0];
    if (!flag || (better.includes(r) && onlyAgainst(r, e.metric))) return [];
    return [`${r.name} is ${flag}`];
  });
}

/** What one point concludes, after the preconditions in the module comment, and how noise was judged. */
function judgePoint(e: Expectation, better: RunResult[], than: RunResult[], results: ResultsFile) {
  const not = (why: string) => ({ outcome: `not judged: ${why}`, how: null });
  const unmet = unmetNeed(e, better, than, results.environment.cores);
  if (unmet) return not(unmet);
  const untrusted = untrustedRuns(e, better, than);
  if (untrusted.length) return not(untrusted.slice(0, 2).join(", "));
  const [b, t] = [meanOf(better, e), meanOf(than, e)];
  if (!Number.isFinite(b) || !Number.isFinite(t)) return not("a side has no response to compare");
  // Other processes took more from a run of `better` than from `than`'s: that can explain it, inconclusive.
  const disturbed = disturbedNote(better, than);
  const unless = (outcome: string, how: string | null = null) =>
    disturbed ? not(`inconclusive: ${disturbed}`) : { outcome, how };
  if (b === t) return unless("no difference");
  if (!(higherIsBetter(e.metric) ? b > t : b < t)) return unless("the other way round");
  const rule = results.analysis?.noiseRule ??
    (better.length >= 2 && than.length >= 2 ? "repeats" : "within-run");
  const noise: NoiseJudgement = judgeNoise(rule, better, than, e.metric);
  if ("notJudged" in noise) return not(`noise not judged (${noise.notJudged})`);
  return noise.beyond ? { outcome: "reproduced", how: noise.how } : unless("within noise", noise.how);
}

function showMetric(m: Expectation["metric"], x: number): string {
  if (m === "rps") return `${formatNumber(x, x >= 100 ? 0 : 1)} req/s`;
  if (m === "success") return `${formatNumber(x, 2)}%`;
  if (m === "cpu") return `${formatNumber(x, x >= 100 ? 0 : 1)} µs`;
  return formatDurationMs(x);
}

/** "closed: 44.5 µs vs 99.8 µs (+124%)": the two means, and how far `than`'s lies from `better`'s. */
function pairText(e: Expectation, p: PointVerdict): string {
  const pct = changePct(p.better, p.than);
  const change = Number.isFinite(pct)
    ? ` (${pct > 0 ? "+" : ""}${formatNumber(pct, Math.abs(pct) < 10 ? 1 : 0)}%)`
    : "";
  return `${p.point}: ${showMetric(e.metric, p.better)} vs ${showMetric(e.metric, p.than)}${change}`;
}

/** The points both variants ran, by "load at sweep point" (with `between: loads`, both loads). */
function pointsOf(e: Expectation, runs: RunResult[]) {
  const out = new Map<string, { better: RunResult[]; than: RunResult[] }>();
  const loads = e.between === "loads";
  for (const run of runs) {
    if (run.probe || run.incomplete || (e.load !== undefined && run.load !== e.load)) continue;
    const name = loads ? run.load : run.variant;
    const side = name === e.better ? "better" : name === e.than ? "than" : null;
    if (side === null) continue;
    const key = loads ? pointKey({ ...run, load: run.variant }) : pointKey(run);
    const at = out.get(key) ?? { better: [], than: [] };
    at[side].push(run);
    out.set(key, at);
  }
  return new Map([...out].filter(([, at]) => at.better.length > 0 && at.than.length > 0));
}

/** The verdict over the points, its tone, and whether each point's own outcome is worth showing. */
function summarize(points: PointVerdict[]): { verdict: string; tone: ExpectVerdict["tone"]; mixed: boolean } {
  const held = points.filter((p) => p.outcome === "reproduced").length;
  const unjudged = points.filter((p) => p.outcome.startsWith("not judged"));
  const whys = [...new Set(points.map((p) => p.outcome.replace(/^not judged: /, "")))];
  if (held === points.length) return { verdict: "reproduced here", tone: "good", mixed: false };
  if (unjudged.length === points.length) {
    return { verdict: `not judged: ${whys.join("; ")}`, tone: "warn", mixed: false };
  }
  if (held === 0 && unjudged.length === 0) {
    return { verdict: `not reproduced here: ${whys.join(", ")}`, tone: "bad", mixed: false };
  }
  const verdict = held ? `reproduced at ${held} of ${points.length} points` : "not reproduced here";
  return { verdict, tone: "bad", mixed: true };
}

/** The sentence on one expectation (see the module comment for when it says "reproduced"). */
export function judgeExpectation(e: Expectation, results: ResultsFile): ExpectVerdict {
  const direction = higherIsBetter(e.metric) ? "higher" : "lower";
  const name = e.metric === "rps" ? "req/s" : e.metric === "cpu" ? "target CPU per request" : e.metric;
  const of = e.between === "loads" ? "load " : "";
  const said = `Expected: ${of}${e.better}'s ${name} ${direction} than ${of}${e.than}'s` +
    (e.load ? ` at load ${e.load}` : "") + (e.says ? ` (“${e.says}”)` : "");
  const runs = [...pointsOf(e, results.runs)];
  const claim = said + otherServers(e, runs.map(([, at]) => at));
  const points = runs.map(([point, at]): PointVerdict => ({
    point,
    better: meanOf(at.better, e),
    than: meanOf(at.than, e),
    ...judgePoint(e, at.better, at.than, results),
  }));
  if (points.length === 0) return { text: `${claim}: not checked here (no runs of both).`, tone: "plain" };
  const together = heldTogether(e, points, runs.map(([, at]) => at), results);
  const { verdict, tone, mixed } = together
    ? { verdict: `reproduced here, beyond noise ${together}`, tone: "good" as const, mixed: false }
    : summarize(points);
  const shown = points.slice(0, MAX_SHOWN_POINTS).map((p) =>
    pairText(e, p) +
    (together ? "" : p.outcome === "reproduced" ? `, beyond noise ${p.how}` : mixed ? `, ${p.outcome}` : "")
  );
  const more = points.length > MAX_SHOWN_POINTS ? "; …" : "";
  const hint = together ? "" : quickHint(points, results);
  return { text: `${claim}: ${verdict}${hint} (${shown.join("; ")}${more}).`, tone };
}

const hostsOf = (
  runs: RunResult[],
) => [...new Set(runs.map((r) => URL.canParse(r.url) ? new URL(r.url).host : r.url))];

/** Between two loads of one target whose runs went to different servers: said on the line; "" otherwise. */
function otherServers(e: Expectation, points: PointRuns[]): string {
  if (e.between !== "loads" || points.length === 0) return "";
  const [better, than] = [points.flatMap((p) => p.better), points.flatMap((p) => p.than)];
  const [a, b] = [hostsOf(better), hostsOf(than)];
  if (a.some((host) => b.includes(host))) return "";
  const grpc = (runs: RunResult[]) => runs.some((r) => r.config?.grpc !== undefined);
  const builtin = [...better, ...than].every((r) => r.targetInfo?.kind === "builtin") &&
    grpc(better) !== grpc(than);
  const stacks = builtin ? ": the built-in target's HTTP is Deno.serve, its gRPC node:http2" : "";
  return ` [not only the load differs: ${e.better} was served on ${a.join(", ")}, ` +
    `${e.than} on ${b.join(", ")}${stacks}]`;
}

interface PointRuns {
  better: RunResult[];
  than: RunResult[];
}

/** Fewest points to weigh together: two can both go one way by chance as often as one in four. */
const MIN_POINTS = 3;

/**
 * The direction across the points when only noise kept some from being reproduced: all went the expected way,
 * `MIN_POINTS`+ were measured, their errors combined (Stouffer) reach `BEYOND_NOISE_MIN_SE`; else null.
 */
function heldTogether(e: Expectation, points: PointVerdict[], runs: PointRuns[], results: ResultsFile) {
  // The expected way at every point: reproduced, within noise, or too close for the point's own bar.
  const held = (p: PointVerdict) =>
    ["reproduced", "within noise"].includes(p.outcome) ||
    p.outcome.startsWith("not judged: noise not judged");
  if (!points.every(held) || points.every((p) => p.outcome === "reproduced")) return null;
  const rule = results.analysis?.noiseRule ??
    (runs.every((p) => p.better.length >= 2 && p.than.length >= 2) ? "repeats" : "within-run");
  if (runs.length < MIN_POINTS) return null;
  const z = runs.map((p) => normalErrors(rule, p.better, p.than, e.metric));
  if (z.some((x) => x === null || (higherIsBetter(e.metric) ? x <= 0 : x >= 0))) return null;
  const combined = Math.abs(z.reduce((a: number, x) => a + x!, 0)) / Math.sqrt(z.length);
  if (combined < BEYOND_NOISE_MIN_SE) return null;
  return `by the ${runs.length} points together (Stouffer over each point's test), ` +
    `${standardErrorsText(combined)} apart`;
}

/** What a `--quick` run's reader can do where noise could not be judged; "" otherwise. */
function quickHint(points: PointVerdict[], results: ResultsFile): string {
  const noise = points.some((p) => p.outcome.startsWith("not judged: noise not judged"));
  return noise && results.experiment.quick ? "; run without --quick for longer runs and more repeats" : "";
}
