/**
 * @module
 * The exit codes every command shares (README's table) and the checks behind 4 and 6.
 */
import { visibleLine } from "../validation/terminal_text.ts";
import { TEST_ABORTED, testFailed } from "../runner/script/k6/test_abort.ts";
import { SETUP_NOT_JSON } from "../runner/script/k6/data.ts";
import type { RunResult, ThresholdResult } from "../results/mod.ts";
import type { GateResult } from "../results/baseline_gate.ts";
import { flaggedRuns, VERDICT_FLAGS } from "../results/conclude/run_verdict.ts";
import { noResponse, requestSendsOf } from "../results/conclude/responses.ts";
import { flag, wrapped } from "./argv.ts";

/** The verdict flags `--strict` exits 6 for: all but a threshold's stop (`abortOnFail`, exit 1). */
const STRICT_KINDS: string[] = VERDICT_FLAGS.map((f) => f.kind).filter((kind) => kind !== "aborted");

/** `--strict` of `attack` and `run`: exit 6 for a flagged run. */
export const STRICT_FLAG = flag(
  "--strict",
  {},
  wrapped(
    `exit 6 when a run is flagged (${STRICT_KINDS.join(", ")}: docs/REFERENCE.md says what each ` +
      "means; a file's strict: true too): CI never gates on untrusted numbers",
    75,
  ),
);

/** Each code of `attack` and `run` and what it means, as their `--help` says it (README.md's table). */
const EXIT_MEANINGS = {
  ok: [0, "ok"],
  thresholdFailed: [1, "a threshold failed (only that)"], // CI reads 1 as "the numbers were not good enough"
  badInput: [2, "bad input (one line naming the problem and the fix)"],
  targetFailed: [3, "a target failed"],
  noResponse: [4, "a run got no response at all (any one run, any error kind, TLS included)"],
  outputNotWritable: [5, "an output cannot be written (checked before the load)"],
  untrusted: [6, "with --strict a run is flagged"], // results/conclude/run_verdict.ts; a `failed` run exits 4
  baselineWorse: [7, "worse than --baseline past a --fail-on rule"], // results/baseline_gate.ts
  baselineUnjudged: [
    8,
    "not judged: a --fail-on rule no pair could check (nothing paired with the baseline, only flagged " +
    "runs, or noise or the run's own waits for a core could explain the change; the reason says what " +
    "would settle it)",
  ],
  interrupted: [130, "Ctrl-C"], // 128 + SIGINT, as shells report a process stopped by Ctrl-C
  terminated: [143, "SIGTERM or SIGHUP (all stop gracefully and keep the partial results)"], // 128 + SIGTERM
} as const;

type Meanings = typeof EXIT_MEANINGS;
export const EXIT = Object.fromEntries(Object.entries(EXIT_MEANINGS).map(([k, [code]]) => [k, code])) as {
  readonly [K in keyof Meanings]: Meanings[K][0];
};

/** What exit `code` means, as `--help` says it. */
export const exitMeaning = (code: number) => Object.values(EXIT_MEANINGS).find(([c]) => c === code)?.[1];

/** The "Exit codes:" paragraph of `command`'s `--help` (`attack` starts no target: no 3). */
export function exitCodesHelp(command: "attack" | "run"): string {
  const codes = Object.values(EXIT_MEANINGS).filter(([code]) => command === "run" || code !== 3);
  const text = `Exit codes: ${codes.map(([code, meaning]) => `${code} ${meaning}`).join(", ")}.`;
  return wrapped(text, 100).join("\n");
}

/** k6's exit codes, which `loadlab run script.js` gives for a k6 script so CI reads k6's numbers. */
export const K6_EXIT = {
  thresholdsFailed: 99, // loadlab's 1
  invalidConfig: 104, // the script's options (loadlab's 2)
  setupTimeout: 100,
  teardownTimeout: 101, // loadlab's 0, a warning
  scriptException: 107, // thrown in init code, setup() or teardown() (loadlab's 2; 0 with a warning)
  scriptAborted: 108, // exec.test.abort()
  markedFailed: 110, // exec.test.fail(): the test ran on, marked failed
  commandFailed: 255, // k6's -1: its command failed before the test (a `--secret-source` it cannot read)
} as const;

/**
 * Locust's exit code for a locustfile it cannot load or run before the load (a syntax error, an import it
 * cannot resolve, a raise at its top level, no user class, no such file): loadlab's 2. A bad flag stays 2.
 */
export const LOCUST_FILE_REFUSED = 1;

/** A k6 script run's exit code: 108 on `exec.test.abort()`, 110 on `fail()`, 99 for a threshold. */
export function k6ExitCodeOf(code: number, runs: RunResult[]): number {
  if (code === EXIT.interrupted || code === EXIT.terminated) return code;
  if (runs.some((r) => r.abortedBy?.testAbort !== undefined)) return K6_EXIT.scriptAborted;
  // A hook's failure (k6's setup, teardown) is its own code, whatever the thresholds say.
  const hook = runs.map((r) => r.setupError ?? r.teardownError).find((e) => e !== undefined);
  if (hook?.includes(TEST_ABORTED)) return K6_EXIT.scriptAborted;
  if (hook?.includes(SETUP_NOT_JSON)) return K6_EXIT.commandFailed;
  if (hook?.includes("Timeout sets the limit)")) {
    return hook.startsWith("setup") ? K6_EXIT.setupTimeout : K6_EXIT.teardownTimeout;
  }
  if (hook !== undefined) return K6_EXIT.scriptException;
  if (testFailed()) return K6_EXIT.markedFailed;
  return code === EXIT.thresholdFailed ? K6_EXIT.thresholdsFailed : code;
}

/** How a load command (`attack`, `run`) ended, as far as its exit code cares. */
export interface CommandOutcome {
  /** The name the stderr lines start with. */
  command: string;
  runs: RunResult[];
  thresholds: ThresholdResult[];
  /** 130 (Ctrl-C) or 143 (SIGTERM) when a signal stopped the command; null when it went to its end. */
  stoppedWith: number | null;
  /** False when results.json, report.html or a log could not be written (already said on stderr). */
  written: boolean;
  /** `--strict` (or `strict: true` in the file). */
  strict: boolean;
  gate?: GateResult;
  /** A k6 script's run: one with no answer is judged by its thresholds, as k6's (`failed` of them failed). */
  k6?: { failed: number };
}

/**
 * The exit code of an ended load command, the most telling cause first; prints the stderr line of 4 and
 * of 6. Each code wins over the ones after it because it makes them meaningless or unreliable:
 * - 130/143, a stop by a signal: the user or a supervisor asked, so nothing after is a verdict on the target;
 * - 5, output not written: a CI job must not read a pass whose results are not on disk;
 * - 4, no response at all: nothing was measured for the rest to judge (a k6 script's thresholds do, as k6's);
 * - 6, untrusted with `--strict`: numbers loadlab flags are no verdict on the target either way;
 * - 7, worse than the baseline: a rule that fired is a finding about the target;
 * - 8, the baseline gate judged nothing: a gate that checked no pair did not pass;
 * - 1, a threshold failed (a shard's pending thresholds count as passed: `loadlab merge` judges them);
 * - 0 otherwise.
 */
export function exitCodeOf(outcome: CommandOutcome): number {
  const { command, runs, gate } = outcome;
  if (outcome.stoppedWith !== null) return outcome.stoppedWith;
  if (!outcome.written) return EXIT.outputNotWritable;
  const failed = runs.filter((r) => !r.probe && noResponse(r));
  if (failed.length) {
    console.error(noResponseLine(command, runs, failed));
    if (!outcome.k6) return EXIT.noResponse;
  }
  if (untrustedRuns(command, runs, outcome.strict)) return EXIT.untrusted;
  if (gate?.failed) return EXIT.baselineWorse;
  if (gate?.unjudged.length) return EXIT.baselineUnjudged;
  return outcome.thresholds.every((t) => t.ok) && !outcome.k6?.failed ? EXIT.ok : EXIT.thresholdFailed;
}

/** The stderr line of exit 4, with each failed run's errors by kind. */
function noResponseLine(command: string, runs: RunResult[], failed: RunResult[]): string {
  const measured = runs.filter((r) => !r.probe).length;
  if (measured === 1) {
    const what = requestSendsOf(failed[0]) === 0
      ? "no session completed: every session failed, none sent a request"
      : "no response at all: every request failed or was cut unanswered";
    return `loadlab ${command}: ${what} (${errorSummary(failed)})${stuckNote(failed)}`;
  }
  const each = failed.map((r) => `${visibleLine(r.name)} (${errorSummary([r])})`).join("; ");
  return `loadlab ${command}: no response at all in ${failed.length} of ${measured} runs: ${each}` +
    stuckNote(failed);
}

/** Says when workers were ended (stuck, over memory): their requests' outcome is unknown. */
function stuckNote(runs: RunResult[]): string {
  const stuck = runs.reduce((a, r) => a + (r.stuckWorkers ?? 0), 0);
  const overMemory = runs.reduce((a, r) => a + (r.memoryCut?.workers ?? 0), 0);
  const were = (n: number) => `${n} load worker${n === 1 ? " was" : "s were"}`;
  const memoryNote = overMemory > 0
    ? `; ${were(overMemory)} ended by loadlab when its memory passed its limit (--max-memory-mb), so ` +
      "what the target answered them is unknown"
    : "";
  return stuck > 0
    ? `; ${were(stuck)} stuck ${stuckIn(runs)} and ended by loadlab, so what the target answered them is ` +
      `unknown${memoryNote}`
    : memoryNote;
}

/** What the stuck workers ran: a session script's own code, a flow's steps, or the load itself. */
function stuckIn(runs: RunResult[]): string {
  const stuck = runs.filter((r) => (r.stuckWorkers ?? 0) > 0);
  if (stuck.some((r) => typeof (r.config as { script?: { path?: unknown } }).script?.path === "string")) {
    return "in the session script's own code";
  }
  return stuck.some((r) => (r.config as { flows?: unknown[] }).flows?.length)
    ? "in a flow's steps (a capture's or check's pattern that never ends)"
    : "in the load's own code";
}

/** With `strict`, prints each flagged run to stderr; true when there is one. */
function untrustedRuns(command: string, runs: RunResult[], strict: boolean): boolean {
  if (!strict) return false;
  const flagged = flaggedRuns(runs).filter(({ verdict }) =>
    verdict.flags.some((f) => STRICT_KINDS.includes(f.kind))
  );
  for (const { run, verdict } of flagged) {
    console.error(`loadlab ${command}: --strict: run ${run.name} is flagged: ${verdict.label}`);
  }
  return flagged.length > 0;
}

/** `connect: 66, e.g. "Connection refused (os error 111)"`: the errors of every run, by kind. */
function errorSummary(runs: RunResult[]): string {
  const counts = new Map<string, number>();
  const messages = new Map<string, string>();
  for (const run of runs) {
    for (const [kind, n] of Object.entries(run.errors)) counts.set(kind, (counts.get(kind) ?? 0) + (n ?? 0));
    for (const [kind, byMessage] of Object.entries(run.errorMessages)) {
      const first = Object.keys(byMessage)[0];
      if (first && !messages.has(kind)) messages.set(kind, first);
    }
  }
  const parts = [...counts].filter(([, n]) => n > 0).map(([kind, n]) =>
    `${kind}: ${n}${messages.has(kind) ? `, e.g. "${visibleLine(messages.get(kind)!)}"` : ""}`
  );
  // Still waiting when the run's own stop came: no failure, yet no response either.
  const unfinished = runs.reduce((a, r) => a + (r.unfinished ?? 0), 0);
  if (unfinished > 0) parts.push(`unfinished (cut by the stop): ${unfinished}`);
  return parts.join("; ") || "no request was sent";
}
