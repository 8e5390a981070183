/**
 * @module
 * The thresholds of a plan: parsed before any load, stopping runs live, judged on each result.
 */
import type { RunResult, ThresholdResult } from "../../results/mod.ts";
import { defined } from "../../validation/defined.ts";
import { judgeOnRun, parseThreshold, type Threshold } from "../../results/thresholds/threshold.ts";
import type { AbortRule } from "../../results/thresholds/abort.ts";
import type { Plan, PlannedRun } from "../plan/types.ts";

/** Every threshold expression of the plan, parsed before any load so a typo costs no run. */
export function parseAllThresholds(plan: Plan): Map<string, Threshold> {
  const parsed = new Map<string, Threshold>();
  for (const expr of plan.runs.flatMap((r) => r.thresholds)) {
    if (!parsed.has(expr)) parsed.set(expr, parseThreshold(expr));
  }
  return parsed;
}

/** The run's `abortOnFail` rules for runner/attack.ts; none on a shard (`--segment`). */
export function abortRules(run: PlannedRun, thresholds: Map<string, Threshold>, shard: boolean): AbortRule[] {
  if (shard) return [];
  return (run.abortOn ?? []).map((a) => ({ threshold: thresholds.get(a.expr)!, delayMs: a.delayMs }));
}

/** Each planned run's thresholds on its result among `runs` (a run not in them is not judged). */
export function judgeThresholds(
  plan: Plan,
  thresholds: Map<string, Threshold>,
  runs: RunResult[],
): ThresholdResult[] {
  const byName = new Map(runs.map((r) => [r.name, r]));
  return plan.runs.flatMap((planned) => {
    const result = byName.get(planned.name);
    return result
      ? planned.thresholds.flatMap((expr) => thresholdResult(plan, thresholds.get(expr)!, result) ?? [])
      : [];
  });
}

/** One threshold on one run, with its declared scope; null when the rule names another run. */
function thresholdResult(plan: Plan, threshold: Threshold, run: RunResult): ThresholdResult | null {
  if (threshold.run !== undefined && threshold.run !== run.name) return null;
  const [result] = judgeOnRun([threshold], run);
  const declared = plan.experiment.thresholds.find((t) =>
    t.expr === threshold.expression && (t.target === undefined || t.target === run.variant) &&
    (t.load === undefined || t.load === run.load)
  );
  if (declared?.target === undefined && declared?.load === undefined) return result;
  return { ...result, scope: defined({ target: declared.target, load: declared.load }) };
}
