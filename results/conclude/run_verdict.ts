/**
 * @module
 * The run verdict: whether loadlab trusts a run's numbers, computed once from the results file, gated by
 * `--strict`. `VERDICT_FLAGS` orders the flags, as docs/REFERENCE.md lists them (a test compares). Pure.
 */
import type { RunResult } from "../schema/results.ts";
import {
  changedBuiltIns,
  errorKindsText,
  errorShareBase,
  noResponse,
  nothingMeasured,
  requestSendsOf,
  sendsOf,
  SERVER_ERROR_FLAG_SHARE,
  serverErrorResponses,
  statusCodesText,
} from "./responses.ts";
import {
  answeredErrors,
  droppedShare,
  formatShare,
  kernelDrops,
  lostRequests,
  unansweredAtStop,
} from "./send_counts.ts";
import { serverBoundLabel } from "./served_rate.ts";
import { stormOutlastText, stormShortText, wsFlood } from "./ws_runs.ts";
import { generatorSaturation } from "./generator_saturation.ts";
import { atText, rampShortfall } from "./planned_connections.ts";
import { describeChange } from "../schema/steering.ts";
import { formatCount, formatDurationMs } from "../text_format.ts";

/** The `failed` flag's words: no response, or WebSocket messages came but none the rule takes as one. */
function failedLabel(run: RunResult): string {
  const unsolicited = run.ws?.unsolicited ?? 0;
  if (unsolicited > 0) {
    return `failed: no answer its rule takes, ${formatCount(unsolicited)} other messages came ` +
      `(${errorKindsText(run)})`;
  }
  // Every session failed without a request (a throwing script, a k6/ws handler): the script's code failed.
  if (requestSendsOf(run) === 0) {
    return `failed: every session failed, none sent a request (${errorKindsText(run)})`;
  }
  return `failed: no response (${errorKindsText(run)})`;
}

/**
 * Which findings a flag keeps from judging the target: `loadlab` every one (the numbers are loadlab's or
 * a cut-short run's), `knee` a knee's point unless the runner found the server was the limit.
 */
export type FlagBlocks = "loadlab" | "knee" | null;

interface FlagRule<K extends string> {
  kind: K;
  /** What the flag means, as docs/REFERENCE.md lists it. */
  means: string;
  blocks: FlagBlocks;
  /** The flag's label with its number ("dropped 12%"), or null when it does not hold. */
  label: (run: RunResult, failed: boolean) => string | null;
}

const rule = <K extends string>(
  kind: K,
  blocks: FlagBlocks,
  means: string,
  label: FlagRule<K>["label"],
): FlagRule<K> => ({ kind, means, blocks, label });

/** Dropped sends and lost requests over this share of intended sends flag the run. */
const DROPPED_FLAG_SHARE = 0.001;

const overShare = (run: RunResult, n: number) => n > DROPPED_FLAG_SHARE * sendsOf(run);

/** The run verdict's flags in the order a verdict lists them. */
export const VERDICT_FLAGS = [
  rule(
    "failed",
    "knee",
    "not one request got any response, any error kind (exit 4); a non-OK gRPC status is a response",
    (run, failed) => failed ? failedLabel(run) : null,
  ),
  rule(
    "nothing measured",
    "loadlab",
    "not one send after the warm-up, so every statistic is of nothing",
    (run) =>
      !nothingMeasured(run)
        ? null
        : run.warmupSec > 0
        ? `nothing measured: every request fell in the ${run.warmupSec}s warm-up`
        : "nothing measured: no request was sent",
  ),
  rule(
    "generator-bound",
    "loadlab",
    "loadlab's generator was the limit: late sends, or a closed run's load worker saturated",
    (run) => run.generatorBound ? generatorBoundLabel(run) : null,
  ),
  rule(
    "server-bound",
    null,
    "the server was the limit; served short of the requested rate, it says how far",
    (run) =>
      !run.serverBound
        ? null
        : stormShortText(run)
        ? `server-bound: ${stormShortText(run)}`
        : serverBoundLabel(run),
  ),
  rule(
    "short storm",
    null,
    "a storm opened fewer connections or sent fewer messages than asked, or outlasted its window",
    (run) => {
      const own = run.serverBound || run.generatorBound ? "" : stormShortText(run);
      const short = [own, stormOutlastText(run)].filter((t) => t);
      return short.length ? `short storm: ${short.join(", ")}` : null;
    },
  ),
  rule(
    "ramp not followed",
    null,
    "a ramping-connections run held under half its planned connections in two intervals or more",
    (run) => {
      const ramp = rampShortfall(run);
      return ramp && `ramp not followed: ${formatCount(ramp.open)} of ${formatCount(ramp.planned)} ` +
          `connections at ${atText(ramp)}`;
    },
  ),
  rule(
    "dropped",
    "knee",
    "sends dropped for being too late, over 0.1% of intended sends",
    (run) => droppedShare(run) > DROPPED_FLAG_SHARE ? `dropped ${formatShare(droppedShare(run))}` : null,
  ),
  rule(
    "lost",
    "knee",
    "requests that got no answer at all (connect, timeout), over 0.1% of sends; kernel drops named beside",
    (run, failed) => {
      const lost = lostRequests(run), kernel = kernelDrops(run);
      if (failed || !overShare(run, lost)) return null;
      const cause = kernel > 0 ? ` (the host's kernel dropped ${formatCount(kernel)} connects)` : "";
      return `lost ${formatCount(lost)}${cause}`;
    },
  ),
  rule(
    "unanswered",
    "knee",
    "requests still waiting when a graceful stop ran out, over 0.1% of sends",
    (run, failed) =>
      !failed && overShare(run, unansweredAtStop(run))
        ? `unanswered ${formatCount(unansweredAtStop(run))} at the stop`
        : null,
  ),
  rule(
    "errors",
    "knee",
    "requests failed without another response (closed, reset, refused) or a script's own failures, over 0.1%",
    (run, failed) => failed ? null : errorsLabel(run),
  ),
  rule(
    "aborted",
    "loadlab",
    "stopped early by a threshold with abortOnFail, at the time it names",
    (run) => run.abortedBy ? abortedLabel(run.abortedBy) : null,
  ),
  rule(
    "incomplete",
    "loadlab",
    "stopped early: Ctrl-C, the target died, a stuck or exited worker, a count out of time, memory",
    (run) => run.incomplete && !run.abortedBy ? incompleteLabel(run) : null,
  ),
  rule(
    "warm-up not reached",
    "loadlab",
    "warmup: auto was asked and latency never stabilized: the statistics include the warm-up",
    (run) => run.warmupNotReached ? "warm-up not reached" : null,
  ),
  rule(
    "data ran out",
    "loadlab",
    "a data: source ran out of rows, so those workers stopped before the load's end",
    (run) => run.dataRanOutWorkers ? `data ran out in ${run.dataRanOutWorkers} worker(s)` : null,
  ),
  rule(
    "steered",
    "loadlab",
    "changed by hand while it ran: the numbers describe the load as steered",
    (run) => steeredLabel(run) || null,
  ),
  rule(
    "flooded",
    "loadlab",
    "a WebSocket rule took a flood of unsolicited messages as answers: round trips of nothing",
    (run) => {
      const flood = wsFlood(run);
      return flood && `flooded: ${formatCount(flood.perAnswer)} unsolicited messages per answer (the ` +
          `${flood.rule} rule takes any message: --ws-match is probably wrong)`;
    },
  ),
  rule(
    "server errors",
    null,
    "5xx responses over 0.1% of the responses: their latencies are the server's error path",
    (run) => {
      const errors = serverErrorResponses(run);
      return errors > SERVER_ERROR_FLAG_SHARE * run.requests
        ? `server errors ${formatShare(errors / run.requests)}`
        : null;
    },
  ),
  rule(
    "no success",
    null,
    "not one response was 2xx/3xx (not one gRPC call OK), unless every one was a 5xx",
    (run) => {
      if (!(run.requests > 0 && run.successRate === 0 && serverErrorResponses(run) < run.requests)) {
        return null;
      }
      const statuses = statusCodesText(run);
      const what = statuses.startsWith("grpc ") ? "call answered OK" : "response was 2xx/3xx";
      return `no success: not one ${what}${statuses ? ` (${statuses})` : ""}`;
    },
  ),
  rule(
    "no session completed",
    null,
    "every session of a flow ended before its last step",
    (run, failed) => failed && requestSendsOf(run) === 0 ? null : sessionsLabel(run),
  ),
];

/** What a flag says; `label` carries its number ("dropped 99.7%", "lost 12"). */
export type VerdictKind = typeof VERDICT_FLAGS[number]["kind"];

/** The verdict of one run: `ok` with no flags, else the flags in `VERDICT_FLAGS` order and their labels. */
export type RunVerdict = ReturnType<typeof runVerdict>;

/** `label`: "ok", or the flags' labels joined by ", " ("generator-bound, dropped 12%"). */
export function runVerdict(run: RunResult) {
  const failed = noResponse(run);
  const flags = VERDICT_FLAGS.flatMap((f) => {
    const label = f.label(run, failed);
    return label ? [{ kind: f.kind, label }] : [];
  });
  return { ok: flags.length === 0, flags, label: flags.length ? flags.map((f) => f.label).join(", ") : "ok" };
}

/** "generator-bound", with a closed run's saturated intervals where they say it. */
function generatorBoundLabel(run: RunResult): string {
  const busy = generatorSaturation(run.intervals);
  if (busy === null || !busy.bound) return "generator-bound";
  return `generator-bound: load worker saturated in ${busy.saturated} of ${busy.judged} intervals`;
}

/** "errors 25% (closed-early 10)", or a changed built-in whatever its share. */
function errorsLabel(run: RunResult): string | null {
  const answered = answeredErrors(run);
  const script = run.errors.script ?? 0;
  const total = answered.total + script;
  const changed = changedBuiltIns(run.errorMessages?.script);
  const builtIns = changed.length > 0 ? `script changed ${changed.join(", ")} while it ran (put back)` : "";
  const base = errorShareBase(run);
  if (total > DROPPED_FLAG_SHARE * base) {
    const text = [answered.text, script > 0 ? `script ${formatCount(script)}` : "", builtIns]
      .filter((t) => t !== "").join(", ");
    return `errors ${formatShare(total / base)} (${text})`;
  }
  return builtIns || null;
}

/** "no session completed: 20 of 20 ended early" for a flow run none of whose sessions completed. */
function sessionsLabel(run: RunResult): string | null {
  const flows = run.flows ?? [];
  const started = flows.reduce((a, f) => a + f.sessions, 0);
  const ended = flows.reduce((a, f) => a + f.failed, 0);
  if (started === 0 || ended < started || flows.some((f) => f.completed > 0)) return null;
  const captures = flows.reduce((a, f) => a + (f.captureFailed ?? 0), 0);
  const cause = captures > 0 ? ` (a capture found nothing in ${formatCount(captures)})` : "";
  return `no session completed: ${formatCount(ended)} of ${formatCount(started)} ended early${cause}`;
}

/** The runs (not capacity-search probes) whose verdict is not ok, with their verdicts. */
export function flaggedRuns(runs: RunResult[]): Array<{ run: RunResult; verdict: RunVerdict }> {
  const judged = runs.filter((r) => !r.probe).map((run) => ({ run, verdict: runVerdict(run) }));
  return judged.filter((v) => !v.verdict.ok);
}

/** Changes listed in a steered run's flag; more are counted. */
const STEER_CHANGES_SHOWN = 3;

/** `steered: rate 400/s at 1.0s, pause at 2.1s` for changes made by hand; null for none or a replay. */
function steeredLabel(run: RunResult): string | null {
  const live = (run.steering ?? []).filter((c) => c.by !== "replay");
  if (live.length === 0) return null;
  const shown = live.slice(0, STEER_CHANGES_SHOWN).map((c) =>
    `${describeChange(c)} at ${c.atSec.toFixed(1)}s`
  );
  const more = live.length > STEER_CHANGES_SHOWN ? ` and ${live.length - STEER_CHANGES_SHOWN} more` : "";
  return `steered: ${shown.join(", ")}${more}`;
}

/** "aborted at 12.0s by p99<100ms": when and by which threshold a run was stopped. */
export function abortedLabel(abortedBy: NonNullable<RunResult["abortedBy"]>): string {
  return `aborted at ${abortedBy.atSec.toFixed(1)}s by ${abortedBy.threshold}`;
}

/** "incomplete", naming the load workers loadlab ended and the script they ran. */
function incompleteLabel(run: RunResult): string {
  const stuck = run.stuckWorkers ?? 0;
  const exited = run.exitedWorkers ?? 0;
  const script = (run.config as { script?: { path?: unknown } } | undefined)?.script?.path;
  const where = typeof script === "string" ? ` in ${script.slice(script.lastIndexOf("/") + 1)}` : "";
  const unrecorded = run.unrecordedLatencies ?? 0;
  const lost = (them: string) =>
    unrecorded > 0
      ? `; latencies of ${formatCount(unrecorded)} answer${unrecorded === 1 ? "" : "s"} lost with ${them}`
      : "";
  if (run.memoryCut) return memoryLabel(run.memoryCut, where) + lost("the workers");
  if (stuck === 0 && exited === 0) return run.endedBy ? endedByLabel(run) : "incomplete";
  const workers = (n: number) => `${n} worker${n === 1 ? "" : "s"}`;
  const parts = [
    ...(stuck > 0 ? [`${workers(stuck)} stuck`] : []),
    ...(exited > 0 ? [`${workers(exited)} exited (Deno.exit)`] : []),
  ];
  return `incomplete: ${parts.join(", ")}${where}${lost("it")}`;
}

/** Why loadlab ended its workers past its memory limit, and how to raise it. */
function memoryLabel(cut: NonNullable<RunResult["memoryCut"]>, where: string): string {
  const why = where !== ""
    ? "a session script that keeps what each iteration makes grows without bound"
    : "the load held more than that";
  return `incomplete: loadlab's memory passed ${formatCount(cut.limitMb)} MB (its limit; --max-memory-mb ` +
    `or maxMemoryMb to change)${where}: ${why}`;
}

/** Why a count ended short of its count: its max duration (as configured), or its sessions idle. */
function endedByLabel(run: RunResult): string {
  if (run.endedBy === "idle") {
    return "incomplete: idle, every session waiting on its own code (not a request, not s.sleep) past the timeout";
  }
  const maxMs = (run.config as { maxDurationMs?: unknown } | undefined)?.maxDurationMs;
  const bound = typeof maxMs === "number" ? ` (${formatDurationMs(maxMs)})` : "";
  return `incomplete: count not reached within its max duration${bound}`;
}
