/**
 * @module
 * The relative gate of `--baseline FILE --fail-on "p99 +10%"`: runs paired by name, each metric judged by
 * `judgeChange` or at the latency floor; a rule neither judges is `unknown` (exit 8), never passes. Pure.
 */
import { defined } from "../validation/defined.ts";
import { durationText } from "../validation/duration.ts";
import type { ResultsFile, RunResult } from "./mod.ts";
import { judgedChange, type NoiseRule } from "./conclude/noise.ts";
import {
  COMPARE_METRICS,
  type CompareMetric,
  higherIsBetter,
  type NoiseMetric,
  runValue,
} from "./conclude/noise_samples.ts";
import { judgeChange } from "./conclude/judged.ts";
import { meanCi, round4 } from "./stats.ts";
import { type FailOn, type GateMetric, pastTolerance } from "./fail_on.ts";
import { runVerdict } from "./conclude/run_verdict.ts";
import { requestKind } from "./conclude/ws_runs.ts";
import { selectedRun, selectorText } from "./thresholds/selector.ts";
import { busyMachineNote, judgeOwnWaits, ownWaits } from "./conclude/own_waits.ts";
import { droppedShare } from "./conclude/send_counts.ts";

/** One metric of one paired group. */
export interface MetricVerdict {
  metric: GateMetric;
  /** Each side's own figure, the mean over its runs (the p99 of each run, not of its batches). */
  baseline: number;
  current: number;
  /** The change the rule weighed, in the metric's unit, and its 95% noise interval; null if not judged. */
  diff: number;
  diffCi95: [number, number] | null;
  /** The two levels the rule compared and the statistic they are (`judgedChange`'s). */
  compared: [number, number];
  statistic: string;
  /** The same change and interval in percent of the baseline's level. */
  changePct: number;
  changeCi95Pct: [number, number] | null;
  verdict: "better" | "same" | "worse" | "unknown";
  /** Why the rule did not judge this change ("the load ramp changes its rate within the run, ..."). */
  notJudged?: string;
  /** The rules a change with no verdict passes: its whole noise interval stays within their tolerance. */
  within?: string[];
  /** A change beyond noise on a busy machine: how far past what the slower side's own waits can make. */
  waits?: string;
  /** Judged at the floor (`floorVerdict`): the metric's own two levels and why they have no verdict. */
  floor?: string;
  noise: NoiseRule;
  /** The `--fail-on` expressions this change fails. */
  failed: string[];
}

/** One paired group: its key, the runs on each side, a verdict per metric. */
export interface GroupVerdict {
  key: string;
  baselineRuns: number;
  currentRuns: number;
  metrics: MetricVerdict[];
  /** Why this pair's numbers cannot pass a `--fail-on` rule (a flagged run); absent when both are trusted. */
  flagged?: string;
  /** Flagged only for errors, which a success rule measures: it checks that rule. */
  errorsOnly?: true;
  /** Flagged only for drops (and the server being the limit), which a dropped rule measures. */
  dropsOnly?: true;
  /** The endpoint selector of the pair's rules (`{name:GET /json}`); absent for the runs as a whole. */
  selector?: string;
  /** The origins when the sides sent to other ones ("http://a:1 → http://b:2"): paired, and said. */
  target?: string;
  /** Other processes' CPU during each side's busiest run; absent when both ran on a quiet machine. */
  neighbours?: string;
}

export type GateResult = ReturnType<typeof gateAgainstBaseline>;

/** The pairing key: the run name without its `#repeat` suffix. */
export function pairKey(run: RunResult): string {
  return run.name.replace(/#\d+$/, "");
}

const round = (pair: [number, number] | null): [number, number] | null =>
  pair && [round4(pair[0]), round4(pair[1])];

/** `judgeChange`'s verdict on one metric of a pair, judged `as` it or its floor, and the rules it fails. */
function ownVerdict(
  before: RunResult[],
  after: RunResult[],
  metric: CompareMetric,
  failOn: FailOn[],
  as: NoiseMetric = metric,
): MetricVerdict {
  const noise: NoiseRule = before.length >= 2 && after.length >= 2 ? "repeats" : "within-run";
  const [mine, theirs] = [{ name: "this run", runs: after }, { name: "baseline", runs: before }];
  const judged = judgeChange(noise, mine, theirs, as);
  const change = judgedChange(noise, after, before, as);
  const pct = (x: number) => (change.base === 0 ? Number.NaN : (x / Math.abs(change.base)) * 100);
  const past = failOn.filter((f) =>
    f.metric === metric && pastTolerance(f, f.unit === "pp" ? change.diff : pct(change.diff))
  );
  const ciPct = change.ci95 && [pct(change.ci95[0]), pct(change.ci95[1])] as [number, number];
  const wideSame = "beyond" in judged && !judged.beyond && past.length > 0
    ? wideSameText(as, pct(change.diff), change.diff, ciPct, past[0])
    : undefined;
  // Short of the noise rule's bar ("beyond noise needs"), a change whose whole interval, as wide as that bar,
  // stays within a rule's tolerance cannot cross it however the noise falls: that rule passes.
  const short = "notJudged" in judged && judged.notJudged.includes("beyond noise needs") && ciPct;
  const within = !short ? [] : failOn.filter((f) =>
    f.metric === metric &&
    !pastTolerance(f, (f.unit === "pp" ? change.ci95! : short)[higherIsBetter(metric) ? 0 : 1])
  ).map((f) => f.expression);
  const said = "notJudged" in judged
    ? judged.notJudged + (within.length ? `; within ${within.join(", ")} at its interval's far end` : "")
    : wideSame;
  const notJudged = said && repeatsFor(said, before.length, after.length);
  const ci95 = notJudged === undefined ? change.ci95 : null;
  const worseWay = higherIsBetter(metric) ? change.diff < 0 : change.diff > 0;
  const verdict: MetricVerdict["verdict"] = notJudged !== undefined
    ? "unknown"
    : !("beyond" in judged && judged.beyond)
    ? "same"
    : worseWay
    ? "worse"
    : "better";
  const failed = verdict === "worse" ? past.map((f) => f.expression) : [];
  const figure = (runs: RunResult[]) => round4(meanCi(runs.map((r) => runValue(r, metric))).mean);
  return {
    metric,
    baseline: figure(before),
    current: figure(after),
    compared: [round4(change.base), round4(change.base + change.diff)],
    statistic: change.statistic,
    diff: round4(change.diff),
    diffCi95: round(ci95),
    changePct: round4(pct(change.diff)),
    changeCi95Pct: round(ci95 && [pct(ci95[0]), pct(ci95[1])]),
    verdict,
    ...defined({ notJudged, waits: ("waits" in judged && judged.waits) || undefined }),
    ...defined({ within: within.length ? within : undefined }),
    noise,
    failed,
  };
}

/** `m` with no verdict, and why: it fails only the rules `failed` names (none unless told). */
const unjudged = (m: MetricVerdict, notJudged: string | undefined, failed: string[] = []): MetricVerdict => ({
  ...m,
  verdict: "unknown",
  diffCi95: null,
  changeCi95Pct: null,
  notJudged,
  within: undefined,
  failed,
});

/** A run with only the half of its intervals whose load worker waited least at each wake-up. */
function calmerHalf(run: RunResult): RunResult {
  const waits = run.intervals.flatMap((iv) => iv.wakeWaitMs ?? []).sort((a, b) => a - b);
  const cut = waits[Math.floor(waits.length / 2)] ?? Infinity;
  return { ...run, intervals: run.intervals.filter((iv) => (iv.wakeWaitMs ?? 0) <= cut) };
}

/**
 * A latency rule judged at the floor, the p10 of each run's calmer half (`calmerHalf`), which core waits move
 * least: a floor risen past the tolerance, noise and the slower side's own waits fails the rule; one risen
 * but not judged leaves no verdict; a floor never passes a rule.
 */
function floorVerdict(
  before: RunResult[],
  after: RunResult[],
  own: MetricVerdict,
  failOn: FailOn[],
): MetricVerdict {
  const open = failOn.filter((f) =>
    f.metric === own.metric && !own.failed.includes(f.expression) && !own.within?.includes(f.expression)
  );
  if ((own.metric !== "p50" && own.metric !== "p99") || own.noise !== "within-run" || !open.length) {
    return own;
  }
  const floor = ownVerdict(before.map(calmerHalf), after.map(calmerHalf), own.metric, open, "p10");
  const levels = (m: MetricVerdict) => `${m.compared.map((x) => Number(x.toPrecision(4))).join(" → ")} ms`;
  const reach = sameReachesPast(own, open[0]);
  const read = `${own.verdict}, which the busier side's stalls can make`;
  const why = own.notJudged ?? (reach ? `its noise interval reaches ${reach}` : `it reads ${read}`);
  if (floor.failed.length) {
    const said = own.verdict === "unknown" || reach ? `has no verdict: ${why}` : `reads ${read}`;
    return {
      ...floor,
      floor: `${own.metric} ${levels(own)} (${own.statistic}) ${said}; judged at the floor, ` +
        "the p10 of the half of each run's intervals whose load worker waited least at each wake-up",
    };
  }
  if (floor.verdict !== "unknown" || !(floor.changePct > open[0].tolerance)) return own;
  const pct = `+${floor.changePct.toFixed(1)}%`;
  return unjudged(own, `${why}; at the floor, p10 ${levels(floor)}, ${pct}: ${floor.notJudged}`, own.failed);
}

/** Each compared metric's verdict on a pair under `rules`: its own, or at its floor (`floorVerdict`). */
const metricVerdicts = (before: RunResult[], after: RunResult[], rules: FailOn[]) =>
  COMPARE_METRICS.map((m) => floorVerdict(before, after, ownVerdict(before, after, m, rules), rules));

/**
 * Why a change past `f`'s tolerance that the noise rule calls "same" is not judged ("same" would pass a
 * change as large as the rule forbids), with how many times as long a run would settle it.
 */
function wideSameText(
  metric: NoiseMetric,
  changePct: number,
  diff: number,
  ciPct: [number, number] | null,
  f: FailOn,
): string {
  // Latency's interval is a ratio's: its width and the change are weighed on the log scale it was judged on.
  const scale = metric !== "rps" && metric !== "success"
    ? (x: number) => Math.log1p(x / 100)
    : (x: number) => x;
  const change = scale(changePct), half = ciPct && (scale(ciPct[1]) - scale(ciPct[0])) / 2;
  const times = half === null || change === 0 ? null : Math.ceil((half / Math.abs(change)) ** 2);
  const settle = times === null ? "" : `about ${times} times the batches (runs ${times} times as long), `;
  const shown = `${changePct > 0 ? "+" : ""}${Number(changePct.toFixed(1))}%`;
  return `${metric} ${f.unit === "pp" ? `${Number(diff.toFixed(2))} pp` : shown} is past the rule's ` +
    `${f.limit} but within noise: judged with ${settle}repeats (repeats: 3) or a quieter machine`;
}

const ENV_FIELDS = ["cpu", "cores", "os", "loadlab", "deno"] as const;

/** The environment fields on which the two files differ (another machine or another build). */
export function environmentDiff(baseline: ResultsFile, current: ResultsFile): string[] {
  return ENV_FIELDS.filter((f) => baseline.environment[f] !== current.environment[f]);
}

/** How the baseline's machine differs in speed ("cores 64 → 2, cpu A → B"); undefined on the same one. */
function otherSpeed(baseline: ResultsFile, current: ResultsFile): string | undefined {
  const [a, b] = [baseline.environment, current.environment];
  const moved = (["cores", "cpu"] as const).filter((f) => a[f] !== b[f]);
  const said = moved.map((f) => `${f} ${a[f] === 0 || a[f] === "?" ? "not recorded" : a[f]} → ${b[f]}`);
  return said.length ? said.join(", ") : undefined;
}

/** The config keys that make a load: two runs that differ in one measure different things. */
const LOAD_KEYS = ["model", "connections", "durationMs", "requests", "ratePerSec", "stages", "phases"]
  .concat(["workers", "pipelining", "streams", "protocol", "requestMix"]);

/** A run's config with its requests as what they ask for: method and path ("GET /sleep"), not the query. */
const loadOf = ({ config: c }: RunResult): Record<string, unknown> => ({
  ...c,
  requestMix: (c.requestMix as { method: string; path: string }[] | undefined)?.map((r) =>
    `${r.method} ${r.path.replace(/\?.*/, "")}`
  ),
});

/**
 * The headers whose values differ between two runs' requests (`accept-encoding`), by name: a value is never
 * shown; a redacted one (a credential) compares by name alone, since a rotated token measures the same.
 */
function headersMoved(a: RunResult, b: RunResult): string[] {
  const sent = (r: RunResult) =>
    ((r.config.requestMix ?? []) as { headers?: string[][] }[]).map((spec) =>
      (spec.headers ?? []).map(([n, v]) => [n.toLowerCase(), v.startsWith("[redacted ") ? "" : v])
    );
  const values = (r: RunResult, name: string) =>
    JSON.stringify(sent(r).map((headers) => headers.filter(([n]) => n === name)));
  const names = new Set([a, b].flatMap((r) => sent(r).flat().map(([n]) => n)));
  return [...names].filter((n) => values(a, n) !== values(b, n));
}

/** Why a pair's sides cannot be compared (other requests, another load); an older file's config is {}. */
function notComparable(base: RunResult[], runs: RunResult[]): string | undefined {
  const kinds = (list: RunResult[]) => [...new Set(list.map(requestKind))].join(" and ");
  if (kinds(base) !== kinds(runs)) {
    return `not comparable: baseline measured ${kinds(base)}, this run ${kinds(runs)}`;
  }
  const [a, b] = [loadOf(base[0]), loadOf(runs[0])];
  const moved = Object.keys(base[0].config).length === 0 ? [] : LOAD_KEYS.flatMap((k) => {
    const [x, y] = [JSON.stringify(a[k]), JSON.stringify(b[k])];
    return x === y ? [] : [`${k} ${x ?? "none"} → ${y ?? "none"}`];
  }).concat(headersMoved(base[0], runs[0]).map((name) => `header ${name} sent otherwise`));
  const d = moved.some((m) => m.startsWith("durationMs"))
    ? ` (-d ${durationText(b.durationMs as number)})`
    : "";
  const fix = `record the baseline with this run's load${d}`;
  return moved.length ? `not comparable: the loads differ (${moved.join(", ")}); ${fix}` : undefined;
}

/** The flagged runs of a pair ("baseline: server-bound"), but for flags of the kinds `skip`. */
function pairFlags(base: RunResult[], runs: RunResult[], skip: string[] = []): string | undefined {
  const flags = (side: string, list: RunResult[]) => {
    const kept = list.map((r) => runVerdict(r).flags.filter((f) => !skip.includes(f.kind)));
    const labels = [...new Set(kept.filter((f) => f.length).map((f) => f.map((x) => x.label).join(", ")))];
    return labels.length ? [`${side}: ${labels.join(", ")}`] : [];
  };
  const parts = [...flags("baseline", base), ...flags("this run", runs)];
  return parts.length ? parts.join("; ") : undefined;
}

/** Why no trusted pair judged rule `f`: its pairs' reasons, else what they lacked. */
function unjudgedReason(f: FailOn, pairs: GroupVerdict[]): string {
  const what = f.selector ? `${f.metric} of ${selectorText(f.selector)}` : f.metric;
  const said = pairs.flatMap((g) => g.metrics.flatMap((m) => (m.metric === f.metric && m.notJudged) || []));
  const own = [...new Set(said)];
  // Each metric says why it has none; a pair with no samples at all says nothing of its own.
  return `no trusted pair has a verdict on ${what}${
    own.length ? `: ${own.join("; ")}` : " (a side has no samples of it)"
  }`;
}

/** `text` with its "repeats (repeats: 3)" as what the pair lacks: this run's, the baseline's, or more. */
function repeatsFor(text: string, baseRuns: number, runs: number): string {
  const lacks = baseRuns >= 2 && runs < 2
    ? `repeats of this run (repeats: ${baseRuns}, as the baseline has; this run has ${runs})`
    : runs >= 2 && baseRuns < 2
    ? `a baseline recorded with repeats (repeats: ${runs}, as this run has; the baseline has ${baseRuns})`
    : baseRuns >= 2
    ? `more repeats (the sides have ${baseRuns} and ${runs})`
    : "repeats on both sides (repeats: 3)";
  return text.replace("repeats (repeats: 3)", lacks);
}

/** How far past `f`'s tolerance a `same` change's interval reaches ("+137.1%"), or null within it. */
function sameReachesPast(m: MetricVerdict, f: FailOn): string | null {
  const ci = f.unit === "pp" ? m.diffCi95 : m.changeCi95Pct;
  if (m.verdict !== "same" || ci === null) return null;
  const end = higherIsBetter(f.metric) ? ci[0] : ci[1];
  if (!pastTolerance(f, end)) return null;
  return `${end > 0 ? "+" : ""}${Number(end.toFixed(1))}${f.unit === "pp" ? " pp" : "%"}`;
}

/** Whether pair metric `m` checks rule `f`: a verdict, and for `same` an interval within the tolerance. */
const checks = (m: MetricVerdict, f: FailOn) =>
  m.metric === f.metric &&
  (m.within?.includes(f.expression) || (m.verdict !== "unknown" && sameReachesPast(m, f) === null));

/** Each `--fail-on` rule no trusted pair could check, and why: the gate cannot pass on it. */
function unjudgedRules(groups: GroupVerdict[], failOn: FailOn[], leftOut: string[], names: string[][]) {
  const trusts = (f: FailOn) => (g: GroupVerdict) =>
    !g.flagged || (f.metric === "success" && g.errorsOnly === true) ||
    (f.metric === "dropped" && g.dropsOnly === true);
  return failOn.flatMap((f) => {
    const selector = f.selector && selectorText(f.selector);
    const trusted = groups.filter((g) => trusts(f)(g) && g.selector === selector);
    if (trusted.some((g) => g.metrics.some((m) => checks(m, f)))) return [];
    const reaches = (g: GroupVerdict) =>
      g.metrics.flatMap((m) => m.metric === f.metric && sameReachesPast(m, f) || []);
    const wide = trusted.find((g) => reaches(g).length), reach = wide && reaches(wide)[0];
    return [{
      rule: f.expression,
      reason: groups.length === 0
        ? leftOut.length
          ? `nothing paired: ${leftOut.join(", ")} stopped early (a Ctrl-C, a kill, or a threshold's ` +
            "abortOnFail) and is left out; gate runs that ran to their end (record that side again)"
          : `nothing paired: no run of this file (${names[0].join(", ")}) has a run of its name in the ` +
            `baseline (${names[1].join(", ")}); record the baseline with this run's command ` +
            "(attack's run is named attack, a file's TARGET/LOAD)"
        : !groups.some(trusts(f))
        ? `every paired run is flagged (${groups[0].flagged}): untrusted numbers pass no rule`
        : wide
        ? repeatsFor(
          `${f.metric} is within noise, but its noise interval reaches ${reach}, past the rule's ` +
            `${f.limit}: a change that large reads as noise in these runs; run repeats (repeats: 3) or on a ` +
            "quieter machine",
          wide.baselineRuns,
          wide.currentRuns,
        )
        : unjudgedReason(f, trusted),
    }];
  });
}

/** A run's endpoints named as the whole run's pairing names its requests: method and path, not the query. */
const pathNamed = (run: RunResult): RunResult => ({
  ...run,
  endpoints: run.endpoints?.map((e) => ({ ...e, name: e.name.replace(/\?.*/, "") })),
});

/** The endpoint rules' pairs; a side the selector misses is paired as the whole run is, by path alone. */
function endpointGroups(key: string, base: RunResult[], runs: RunResult[], failOn: FailOn[]): GroupVerdict[] {
  const bySelector = Map.groupBy(failOn.filter((f) => f.selector), (f) => selectorText(f.selector!));
  const out: GroupVerdict[] = [];
  for (const [text, rules] of bySelector) {
    const sel = rules[0].selector!, byPath = { ...sel, ...defined({ name: sel.name?.replace(/\?.*/, "") }) };
    const view = (list: RunResult[], paths = false) =>
      list.flatMap((r) => (paths ? selectedRun(pathNamed(r), byPath) : selectedRun(r, sel)) ?? []);
    let [before, after] = [view(base), view(runs)];
    if (!before.length || !after.length) [before, after] = [view(base, true), view(runs, true)];
    if (before.length === 0 || after.length === 0) continue;
    out.push({
      key: `${key} ${text}`,
      baselineRuns: before.length,
      currentRuns: after.length,
      metrics: metricVerdicts(before, after, rules),
      selector: text,
    });
  }
  return out;
}

/** Why a baseline's latency and rate judge nothing: 1 pp more of its answers failed (its p99 may be them). */
function failedAnswers(base: RunResult[], runs: RunResult[]): string | undefined {
  const [before, after] = [base, runs].map((list) =>
    round4(100 - meanCi(list.map((r) => r.successRate * 100)).mean)
  );
  if (!(before - after >= 1)) return undefined;
  return `the baseline's answers failed ${before}%, this run's ${after}%: its latency and req/s are partly ` +
    "failed answers', so they neither fail nor pass a rule; record the baseline where its requests succeed";
}

/** The mean share (%) of intended sends a side's runs dropped. */
const droppedPct = (runs: RunResult[]) =>
  Number(meanCi(runs.map((r) => droppedShare(r) * 100)).mean.toFixed(2));

/**
 * The dropped share's verdict (points of intended sends): a rise past a rule fails unless the slower side's
 * own core waits explain it; beside a baseline that dropped, under twice its run-to-run swing is not judged.
 */
function droppedVerdict(base: RunResult[], runs: RunResult[], failOn: FailOn[]): MetricVerdict[] {
  const rules = failOn.filter((f) => f.metric === "dropped");
  const [before, after] = [droppedPct(base), droppedPct(runs)];
  if (!rules.length && before === 0 && after === 0) return [];
  const diff = round4(after - before), past = rules.filter((f) => pastTolerance(f, diff));
  const p50 = (list: RunResult[]) => meanCi(list.map((r) => r.latencyMs.p50)).mean;
  const waits = past.length ? judgeOwnWaits(base, runs, "p50", p50(base), p50(runs)) : null;
  const notJudged = !past.length
    ? undefined
    : after < 2 * before
    ? `the baseline dropped ${before}% too, and this run less than twice that: past the knee the share ` +
      "swings from run to run; record the baseline at a rate it serves (under 0.1% dropped)"
    : waits?.explains
    ? `this run dropped ${after}%, which the runner's stalls may have made: its p50 is within what ${waits.text}`
    : undefined;
  const verdict: MetricVerdict = {
    metric: "dropped",
    baseline: before,
    current: after,
    compared: [before, after],
    statistic: "share of intended sends dropped, the mean of the runs",
    diff,
    changePct: before > 0 ? round4((diff / before) * 100) : Number.NaN,
    verdict: past.length ? "worse" : diff < 0 ? "better" : "same",
    diffCi95: null,
    changeCi95Pct: null,
    noise: base.length >= 2 && runs.length >= 2 ? "repeats" : "within-run",
    failed: past.map((f) => f.expression),
  };
  return [notJudged ? unjudged(verdict, notJudged) : verdict];
}

const NO_WAITS = "the baseline records no waits for a core (no interval generatorWaitPct or wakeWaitMs: " +
  "an older loadlab's file), so its stalls cannot be told from its server's: it passes no latency or rate " +
  "rule; record the baseline again with this loadlab (the same command with -o FILE)";

/** "other processes took 1.1 of the 2 cores during the baseline's run high#2" for each side it holds for. */
function neighboursOf(base: RunResult[], runs: RunResult[]): string | undefined {
  const notes = ([[base, "the baseline's run"], [runs, "this run's"]] as const).flatMap(([list, side]) => {
    const busiest = list.reduce((a, r) =>
      (r.hostCpu?.otherCores ?? 0) > (a.hostCpu?.otherCores ?? 0) ? r : a
    );
    const note = busyMachineNote(busiest);
    return note ? [`${note} during ${side} ${busiest.name}`] : [];
  });
  return notes.length ? notes.join(", ") : undefined;
}

/** Compares `current` with `baseline`, group by group; `failed` when any `--fail-on` fired. */
export function gateAgainstBaseline(
  baseline: ResultsFile,
  current: ResultsFile,
  failOn: FailOn[],
) {
  const paired = (runs: RunResult[]) => Map.groupBy(runs.filter((r) => !r.probe && !r.incomplete), pairKey);
  const before = paired(baseline.runs), after = paired(current.runs);
  const groups: GroupVerdict[] = [], unpaired: string[] = [];
  for (const [key, runs] of after) {
    const base = before.get(key);
    if (!base) {
      if (!baseline.runs.some((r) => r.incomplete && pairKey(r) === key)) unpaired.push(key);
      continue;
    }
    const whole = failOn.filter((f) => f.selector === undefined);
    const unlike = notComparable(base, runs);
    const flagged = unlike ?? pairFlags(base, runs);
    const only = (kinds: string[]) => !unlike && flagged && !pairFlags(base, runs, kinds) || undefined;
    const [errorsOnly, dropsOnly] = [only(["errors", "server errors"]), only(["dropped", "server-bound"])];
    const metrics = [...metricVerdicts(base, runs, whole), ...droppedVerdict(base, runs, whole)];
    const [from, to] = [base[0], runs[0]].map((r) => URL.parse(r.url)?.origin ?? r.url);
    const target = from === to ? undefined : `${from} → ${to}`;
    const pair = [
      { key, baselineRuns: base.length, currentRuns: runs.length, metrics },
      ...endpointGroups(key, base, runs, failOn),
    ].map((g) => ({
      ...g,
      ...defined({ flagged, errorsOnly, dropsOnly, target, neighbours: neighboursOf(base, runs) }),
    }));
    // Beside a baseline without waits only a rule this run fails stands, and a success rule (no waits in it).
    const noWaits = ownWaits(base) === null && ownWaits(runs) !== null ? NO_WAITS : undefined;
    const why = unlike ?? failedAnswers(base, runs) ?? noWaits;
    const kept = (m: MetricVerdict) =>
      !why || ((m.metric === "success" || m.metric === "dropped") && !unlike) ||
        (why === noWaits && m.failed.length > 0)
        ? m
        : unjudged(m, why);
    groups.push(...pair.map((g) => ({ ...g, metrics: g.metrics.map(kept) })));
  }
  // Another CPU or core count moves speed by itself: a change it could make fails no rule there.
  const machine = otherSpeed(baseline, current);
  for (const g of groups) {
    g.metrics = g.metrics.map((m) =>
      !machine || !m.failed.length || m.metric === "success" ? m : unjudged(
        m,
        `${m.verdict} past ${m.failed.join(", ")}, but the baseline ran on another machine ` +
          `(${machine}), whose speed alone can make it: gate against a baseline from this runner's kind`,
      )
    );
  }
  const failed = groups.some((g) => g.metrics.some((m) => m.failed.length > 0));
  const stopped = (runs: RunResult[], prefix: string) =>
    runs.filter((r) => !r.probe && r.incomplete).map((r) => `${prefix}${r.name}`);
  const leftOut = [...stopped(baseline.runs, "baseline's "), ...stopped(current.runs, "")];
  const baselineOnly = [...before.keys()].filter((key) => !after.has(key));
  return {
    groups,
    /** Groups of this run the baseline has no runs for. */
    unpaired,
    /** Groups of the baseline this run has no runs for (a renamed load, another experiment's file). */
    baselineOnly,
    /** Runs left out because they stopped early (`incomplete`). */
    leftOut,
    /** Environment fields that differ ("cpu", "cores", "os" with its kernel, ...): every verdict is weak. */
    otherMachine: environmentDiff(baseline, current),
    failed,
    rules: failOn.map((f) => f.expression),
    /** The `--fail-on` rules no trusted pair checked: the gate did not pass (exit 8). */
    unjudged: unjudgedRules(groups, failOn, leftOut, [unpaired, baselineOnly]),
  };
}
