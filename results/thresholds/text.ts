/**
 * @module
 * How a threshold's outcome reads wherever it is printed: its value in the rule's unit, its verdict. Pure.
 */
import type { ResultsFile, RunResult, ThresholdResult } from "../schema/results.ts";
import { abortedLabel, type RunVerdict, runVerdict } from "../conclude/run_verdict.ts";
import { ruleUnit } from "./threshold.ts";
import { fixedOrDash, formatCount } from "../text_format.ts";

/** A threshold's measured value in its rule's unit; "–" when not evaluated (a shard's pending one). */
export function formatThresholdActual(expression: string, actual: number): string {
  if (!Number.isFinite(actual)) return "–";
  const { kind, unit } = ruleUnit(expression);
  if (kind === "latency") {
    // Latencies are stored in ms; the rule's unit chooses the scale (a bare number means ms).
    if (unit === "us") return `${fixedOrDash(actual * 1000, 0)} us`;
    if (unit === "s") return `${fixedOrDash(actual / 1000, 3)} s`;
    return `${fixedOrDash(actual, 2)} ms`;
  }
  if (kind === "ratio") return unit === "%" ? `${fixedOrDash(actual * 100, 2)}%` : fixedOrDash(actual, 4);
  return Number.isInteger(actual) ? formatCount(actual) : fixedOrDash(actual, 2);
}

/** The verdict of the run a threshold was evaluated on, null when that run is not in `runs`. */
export function thresholdRunVerdict(t: ThresholdResult, runs: RunResult[]): RunVerdict | null {
  const run = runs.find((r) => r.name === t.run);
  return run ? runVerdict(run) : null;
}

/** " — on a generator-bound run" when the run is flagged (or aborted by a threshold), else "". */
export function flaggedRunNote(t: ThresholdResult, runs: RunResult[]): string {
  const v = thresholdRunVerdict(t, runs);
  const unmatched = t.unmatched ? " — matches no endpoint of the run: failed, nothing measured" : "";
  return unmatched + (v && !v.ok ? ` — ${flaggedRunPhrase(v)}` : "");
}

/** What a flagged verdict says beside a threshold ("on a generator-bound run", "run aborted at ..."). */
export function flaggedRunPhrase(v: RunVerdict): string {
  const others = v.flags.filter((f) => f.kind !== "aborted").map((f) => f.label).join(", ");
  const aborted = v.flags.find((f) => f.kind === "aborted");
  const phrases = [others ? `on a ${others} run` : "", aborted ? `run ${aborted.label}` : ""];
  return phrases.filter(Boolean).join(" — ");
}

/** One threshold as the terminal prints it: `PASS  p99<100ms  (attack: 84.20 ms)`. */
export function thresholdLine(t: ThresholdResult, runs: RunResult[]): string {
  if (t.pending) return `PENDING  ${t.expression}  (evaluated on the merged shards by loadlab merge)`;
  const actual = formatThresholdActual(t.expression, t.actual);
  return `${t.ok ? "PASS" : "FAIL"}  ${t.expression}  (${t.run}: ${actual})${flaggedRunNote(t, runs)}`;
}

/** "run app/steady aborted at 12.0s by p99<100ms (abortOnFail); ..." when a rule stopped it, else null. */
export function abortNote(results: Pick<ResultsFile, "runs" | "notRun">): string | null {
  const run = results.runs.find((r) => r.abortedBy);
  if (!run?.abortedBy) return null;
  const notRun = results.notRun ?? [];
  const names = notRun.slice(0, 5).join(", ") + (notRun.length > 5 ? ", ..." : "");
  const rest = notRun.length
    ? `; ${notRun.length} planned run${notRun.length > 1 ? "s" : ""} not run: ${names}`
    : "";
  const why = run.abortedBy.testAbort === undefined ? " (abortOnFail)" : "";
  return `run ${run.name} ${abortedLabel(run.abortedBy)}${why}${rest}`;
}
