/**
 * @module
 * `loadlab report --compare`'s view: each change judged by `judgePair` (results/conclude/judged.ts).
 */
import type { ResultsFile, RunResult } from "../../results/mod.ts";
import {
  COMPARE_METRICS,
  type CompareMetric,
  runNoise,
  runValue,
} from "../../results/conclude/noise_samples.ts";
import { judgePair } from "../../results/conclude/judged.ts";
import { judgedChange } from "../../results/conclude/noise.ts";
import { changePct, round4 } from "../../results/stats.ts";
import { gateAgainstBaseline } from "../../results/baseline_gate.ts";
import type { FailOn } from "../../results/fail_on.ts";
import { gateRows } from "../terminal/baseline_gate.ts";

/** One metric of one matched run pair. */
export type CompareCell = ReturnType<typeof compareCell>;

/** One matched run: the name plus a cell per metric. */
export type CompareRow = ReturnType<typeof buildCompare>[number];

function compareCell(before: RunResult, after: RunResult, metric: CompareMetric) {
  const a = runNoise(before, metric), b = runNoise(after, metric);
  const [x, y] = [runValue(before, metric), runValue(after, metric)];
  const change = judgedChange("within-run", [after], [before], metric);
  return {
    before: round4(x),
    after: round4(y),
    changePct: round4(changePct(x, y)),
    beforeCi: a.ci95 === null ? null : round4(a.ci95),
    afterCi: b.ci95 === null ? null : round4(b.ci95),
    /** The verdict, and why the change was not judged ("candidate is generator-bound"); null when it was. */
    ...judgePair(before, after, metric),
    /** The two levels the noise rule compared, and what they are ("median of the batch means ..."). */
    compared: [round4(change.base), round4(change.base + change.diff)] as [number, number],
    statistic: change.statistic,
  };
}

/** Matches runs by name, in the candidate's order; unmatched runs are left out. */
export function buildCompare(baseline: ResultsFile, candidate: ResultsFile) {
  const byName = new Map(baseline.runs.map((r) => [r.name, r]));
  return candidate.runs.flatMap((run) => {
    const before = byName.get(run.name);
    if (!before) return [];
    const cells = Object.fromEntries(COMPARE_METRICS.map((m) => [m, compareCell(before, run, m)]));
    return [{ name: run.name, cells: cells as Record<CompareMetric, CompareCell> }];
  });
}

/** The gate's verdicts by run group (names without `#repeat`), the rules of `failOn` applied. */
export function buildGateRows(baseline: ResultsFile, candidate: ResultsFile, failOn: FailOn[]) {
  const rows = gateRows(gateAgainstBaseline(baseline, candidate, failOn));
  return rows.map((row) => ({ ...row, failed: row.failed.length > 0 }));
}
