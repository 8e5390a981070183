/**
 * @module
 * The relative gate of `--baseline FILE --fail-on "p99 +10%"`: runs paired by name, each metric judged by
 * `judgeChange` (conclude/judged.ts) or, for latency, at the floor (`floorVerdict`); a rule neither judges is
 * `unknown` with its reason and exits 8, never passes. Pure.
 */
import { defined } from "../validation/defined.ts";
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
import { type FailOn, pastTolerance } from "./fail_on.ts";
import { runVerdict } from "./conclude/run_verdict.ts";
import { requestKind } from "./conclude/ws_runs.ts";
import { selectedRun, selectorText } from "./thresholds/selector.ts";
import { busyMachineNote, ownWaits } from "./conclude/own_waits.ts";

/** One metric of one paired group. */
export interface MetricVerdict {
  metric: CompareMetric;
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
  /** The endpoint selector of the pair's rules (`{name:GET /json}`); absent for the runs as a whole. */
  selector?: string;
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
  const notJudged = "notJudged" in judged ? judged.notJudged : wideSame;
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
    ...defined({ notJudged }),
    ...("waits" in judged && judged.waits ? { waits: judged.waits } : {}),
    noise,
    failed,
  };
}

/** A metric's fields when it has no verdict (its `notJudged` says why). */
const UNKNOWN = { verdict: "unknown", diffCi95: null, changeCi95Pct: null } as const;

/** A run with only the half of its intervals whose load worker waited least at each wake-up. */
function calmerHalf(run: RunResult): RunResult {
  const waits = run.intervals.flatMap((iv) => iv.wakeWaitMs ?? []).sort((a, b) => a - b);
  const cut = waits[Math.floor(waits.length / 2)] ?? Infinity;
  return { ...run, intervals: run.intervals.filter((iv) => (iv.wakeWaitMs ?? 0) <= cut) };
}

/**
 * A latency rule one run a side does not fail, judged at the floor: the p10 of the calmer half of each run's
 * intervals (`calmerHalf`), which waits for a core move least where a busy machine's p99 is its stalls. A
 * floor risen past the tolerance, beyond noise and the slower side's own waits fails the rule; one risen but
 * not judged leaves no verdict; a floor never passes a rule.
 */
function floorVerdict(
  before: RunResult[],
  after: RunResult[],
  own: MetricVerdict,
  failOn: FailOn[],
): MetricVerdict {
  const open = failOn.filter((f) => f.metric === own.metric && !own.failed.includes(f.expression));
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
  return {
    ...own,
    ...UNKNOWN,
    notJudged: `${why}; at the floor, p10 ${levels(floor)}, ${pct}: ${floor.notJudged}`,
  };
}

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
  });
  return moved.length ? `not comparable: the loads differ (${moved.join(", ")})` : undefined;
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
  const own = [
    ...new Set(pairs.flatMap((g) => g.metrics.flatMap((m) => (m.metric === f.metric && m.notJudged) || []))),
  ];
  if (own.length) return `no trusted pair has a verdict on ${what}: ${own.join("; ")}`;
  return f.selector
    ? `no trusted pair has a verdict on ${what} (no endpoint selected, ` +
      "no samples, or one run a side: an endpoint's latency noise needs repeats)"
    : `no trusted pair has a verdict on ${what} (no samples, or too few intervals to measure noise)`;
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
  m.metric === f.metric && m.verdict !== "unknown" && sameReachesPast(m, f) === null;

/** Each `--fail-on` rule no trusted pair could check, and why: the gate cannot pass on it. */
function unjudgedRules(groups: GroupVerdict[], failOn: FailOn[]) {
  const trusts = (f: FailOn) => (g: GroupVerdict) =>
    !g.flagged || (f.metric === "success" && g.errorsOnly === true);
  return failOn.flatMap((f) => {
    const selector = f.selector && selectorText(f.selector);
    const trusted = groups.filter((g) => trusts(f)(g) && g.selector === selector);
    if (trusted.some((g) => g.metrics.some((m) => checks(m, f)))) return [];
    const wide = trusted.flatMap((g) =>
      g.metrics.flatMap((m) => m.metric === f.metric && sameReachesPast(m, f) || [])
    );
    return [{
      rule: f.expression,
      reason: groups.length === 0
        ? "no run of this experiment has a run of the same name in the baseline: nothing paired"
        : !groups.some(trusts(f))
        ? `every paired run is flagged (${groups[0].flagged}): untrusted numbers pass no rule`
        : wide.length
        ? `${f.metric} is within noise, but its noise interval reaches ${
          wide[0]
        }, past the rule's ${f.limit}: ` +
          "a change that large reads as noise in these runs; run repeats (repeats: 3) or on a quieter machine"
        : unjudgedReason(f, trusted),
    }];
  });
}

function endpointGroups(key: string, base: RunResult[], runs: RunResult[], failOn: FailOn[]): GroupVerdict[] {
  const bySelector = Map.groupBy(failOn.filter((f) => f.selector), (f) => selectorText(f.selector!));
  const out: GroupVerdict[] = [];
  for (const [text, rules] of bySelector) {
    const view = (list: RunResult[]) => list.flatMap((r) => selectedRun(r, rules[0].selector!) ?? []);
    const before = view(base), after = view(runs);
    if (before.length === 0 || after.length === 0) continue;
    out.push({
      key: `${key} ${text}`,
      baselineRuns: before.length,
      currentRuns: after.length,
      metrics: COMPARE_METRICS.map((m) =>
        floorVerdict(before, after, ownVerdict(before, after, m, rules), rules)
      ),
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
      unpaired.push(key);
      continue;
    }
    const whole = failOn.filter((f) => f.selector === undefined);
    const unlike = notComparable(base, runs);
    const flagged = unlike ?? pairFlags(base, runs);
    const errorsOnly = !unlike && flagged && !pairFlags(base, runs, ["errors", "server errors"]) || undefined;
    const verdict = (m: CompareMetric) => floorVerdict(base, runs, ownVerdict(base, runs, m, whole), whole);
    const pair = [
      { key, baselineRuns: base.length, currentRuns: runs.length, metrics: COMPARE_METRICS.map(verdict) },
      ...endpointGroups(key, base, runs, failOn),
    ].map((g) => ({ ...g, ...defined({ flagged, errorsOnly, neighbours: neighboursOf(base, runs) }) }));
    // Beside a baseline without waits only a rule this run fails stands, and a success rule (no waits in it).
    const noWaits = ownWaits(base) === null && ownWaits(runs) !== null ? NO_WAITS : undefined;
    const why = unlike ?? failedAnswers(base, runs) ?? noWaits;
    const none = (m: MetricVerdict): MetricVerdict => ({ ...m, ...UNKNOWN, notJudged: why, failed: [] });
    const kept = (m: MetricVerdict) =>
      !why || (m.metric === "success" && !unlike) || (why === noWaits && m.failed.length > 0);
    groups.push(...pair.map((g) => ({ ...g, metrics: g.metrics.map((m) => kept(m) ? m : none(m)) })));
  }
  const failed = groups.some((g) => g.metrics.some((m) => m.failed.length > 0));
  const stopped = (runs: RunResult[], prefix: string) =>
    runs.filter((r) => !r.probe && r.incomplete).map((r) => `${prefix}${r.name}`);
  const leftOut = [...stopped(baseline.runs, "baseline's "), ...stopped(current.runs, "")];
  return {
    groups,
    /** Groups of this run the baseline has no runs for. */
    unpaired,
    /** Groups of the baseline this run has no runs for (a renamed load, another experiment's file). */
    baselineOnly: [...before.keys()].filter((key) => !after.has(key)),
    /** Runs left out because they stopped early (`incomplete`). */
    leftOut,
    /** Environment fields that differ ("cpu", "cores", "os" with its kernel, ...): every verdict is weak. */
    otherMachine: environmentDiff(baseline, current),
    failed,
    rules: failOn.map((f) => f.expression),
    /** The `--fail-on` rules no trusted pair checked: the gate did not pass (exit 8). */
    unjudged: unjudgedRules(groups, failOn),
  };
}
