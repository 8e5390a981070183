/**
 * @module
 * Which runs a finding may judge the target on, from the findings each flag blocks (`VERDICT_FLAGS`). Pure.
 */
import type { RunResult } from "../mod.ts";
import { type FlagBlocks, runVerdict, VERDICT_FLAGS, type VerdictKind } from "./run_verdict.ts";
import { judgeNoise, type NoiseJudgement, type NoiseRule } from "./noise.ts";
import { type NoiseMetric, withinRunBlocker } from "./noise_samples.ts";
import type { NoiseVerdict } from "../stats.ts";

const BLOCKS = new Map<VerdictKind, FlagBlocks>(VERDICT_FLAGS.map((f) => [f.kind, f.blocks]));

function flagLabels(runs: RunResult[], keep: (kind: VerdictKind, run: RunResult) => boolean): string[] {
  const labels = runs.flatMap((run) =>
    runVerdict(run).flags.filter((f) => keep(f.kind, run)).map((f) => f.label)
  );
  return [...new Set(labels)];
}

/** The flag labels that make these runs' numbers loadlab's or a cut-short run's; empty when none. */
export function loadlabFlags(runs: RunResult[]): string[] {
  return flagLabels(runs, (kind) => BLOCKS.get(kind) === "loadlab");
}

/** The flag labels that keep these runs (one sweep point) from placing a knee; empty when none. */
export function notJudgedFlags(runs: RunResult[]): string[] {
  return flagLabels(
    runs,
    (kind, run) => BLOCKS.get(kind) === "loadlab" || (BLOCKS.get(kind) === "knee" && !run.serverBound),
  );
}

/** A sweep point not judged, by its swept value, with why. */
export interface NotJudged {
  value: number;
  flags: string[];
}

/** "400, 800 not judged: generator-bound", one clause per reason; "" when none. */
export function notJudgedText(points: NotJudged[], count = (x: number) => String(x)): string {
  const byWhy = Map.groupBy(points, (p) => p.flags.join(", "));
  return [...byWhy].map(([why, at]) => `${at.map((p) => count(p.value)).join(", ")} not judged: ${why}`)
    .join("; ");
}

/** Why a change between sides cannot be judged against noise ("new is generator-bound"), or null. */
function sidesNotJudged(sides: Array<{ name: string; runs: RunResult[] }>): string | null {
  const why = sides.flatMap((s) => {
    const flags = loadlabFlags(s.runs);
    return flags.length ? [`${s.name} is ${flags.join(", ")}`] : [];
  });
  return why.length ? why.join(", ") : null;
}

/** One side of a change: its name as the sentence says it ("new", "baseline") and its runs. */
export interface Side {
  name: string;
  runs: RunResult[];
}

/** A change of `metric` from `base` to `side`: not judged on `loadlabFlags`, else the noise rule's. */
export function judgeChange(rule: NoiseRule, side: Side, base: Side, metric: NoiseMetric): NoiseJudgement {
  // A load that changes its rate within the run can never be judged by its own intervals: said before any
  // flag, so the reason does not turn on how busy the machine was (a flag of either side is shown beside).
  const phased = rule === "within-run" && metric !== "success" &&
    withinRunBlocker([...side.runs, ...base.runs]);
  if (phased) return { notJudged: phased };
  const flagged = sidesNotJudged([side, base]);
  return flagged ? { notJudged: flagged } : judgeNoise(rule, side.runs, base.runs, metric);
}

/** A change of one pair of runs in the words of `report --compare`: the verdict, and why none when none. */
interface PairJudgement {
  /** "unknown" when not judged. */
  verdict: NoiseVerdict;
  /** Why it was not judged ("candidate is generator-bound", "too few repeats, ..."); null when it was. */
  notJudged: string | null;
}

/** `report --compare`'s judgement of `metric` between a baseline run and its candidate (within-run). */
export function judgePair(before: RunResult, after: RunResult, metric: NoiseMetric): PairJudgement {
  const [candidate, baseline] = [{ name: "candidate", runs: [after] }, { name: "baseline", runs: [before] }];
  const j = judgeChange("within-run", candidate, baseline, metric);
  if ("notJudged" in j) return { verdict: "unknown", notJudged: j.notJudged };
  return { verdict: j.beyond ? "beyond-noise" : "within-noise", notJudged: null };
}
