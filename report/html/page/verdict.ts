/**
 * @module
 * The run verdict's page data, pure: each row's verdict, requested, sent, dropped; each threshold's actual.
 */
import type { ResultsFile, RunResult } from "../../../results/mod.ts";
import { runVerdict } from "../../../results/conclude/run_verdict.ts";
import { achievedAbove, sendFacts } from "../../../results/conclude/send_counts.ts";
import {
  flaggedRunPhrase,
  formatThresholdActual,
  thresholdRunVerdict,
} from "../../../results/thresholds/text.ts";
import { round4 } from "../../../results/stats.ts";

/** Requested rate (mean over repeats), sends made and dropped (sums) of an overview row. */
interface OverviewSends {
  requestedRps: number;
  sent: number;
  dropped: number;
  droppedShare: number;
  /** Achieved req/s above the requested rate beyond noise (`achievedAbove`). */
  aboveRequested: boolean;
  /** Responses after the load's end (summed), which the achieved rate leaves out. */
  drained?: number;
}

/** "ok", the one run's verdict label, or "name: label" for each flagged run of a group of repeats. */
export function groupVerdict(runs: RunResult[]): string {
  const flagged = runs.map((r) => [r, runVerdict(r)] as const).filter(([, v]) => !v.ok);
  if (flagged.length === 0) return "ok";
  if (runs.length === 1) return flagged[0][1].label;
  return flagged.map(([r, v]) => `${r.name}: ${v.label}`).join("; ");
}

/** The sends of a group of open-model runs; null when any is closed (no requested rate). */
export function groupSends(runs: RunResult[]): OverviewSends | null {
  const facts = runs.map((r) => ({ ...sendFacts(r), aboveRequested: achievedAbove(r), drained: r.drained }));
  if (facts.some((f) => f.requestedRps === null)) return null;
  return pooledSends(facts.map((f) => ({ ...f, requestedRps: f.requestedRps! })), round4);
}

/** Several runs' sends as one: requested rate (mean), sent, dropped and drained (sums); page-inlined. */
export function pooledSends(all: Array<Omit<OverviewSends, "droppedShare">>, round = (x: number) => x) {
  const sum = (of: (s: Omit<OverviewSends, "droppedShare">) => number) => all.reduce((a, s) => a + of(s), 0);
  const [sent, dropped] = [sum((s) => s.sent), sum((s) => s.dropped)];
  return {
    requestedRps: round(sum((s) => s.requestedRps) / all.length),
    sent,
    dropped,
    droppedShare: sent + dropped > 0 ? round(dropped / (sent + dropped)) : 0,
    aboveRequested: all.some((s) => s.aboveRequested),
    drained: sum((s) => s.drained ?? 0),
  };
}

/** Each threshold with its actual in its rule's unit and a flagged run's verdict beside it; else null. */
export function pageThresholds(results: ResultsFile) {
  return results.thresholds.map((t) => {
    const v = thresholdRunVerdict(t, results.runs);
    return {
      ...t,
      actualText: formatThresholdActual(t.expression, t.actual),
      flagged: v && !v.ok ? flaggedRunPhrase(v) : null,
    };
  });
}
