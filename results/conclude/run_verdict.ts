/**
 * @module
 * The run verdict: whether loadlab trusts a run's numbers, computed once from what the results file
 * holds and shown wherever a run's numbers are (report overview, threshold rows, terminal summary and
 * progress lines, `--summary`, `--junit`) and gated by `--strict`. It reads, never judges again: the
 * generator-bound and server-bound flags are the runner's (results/conclude/bound_verdict.ts), and the
 * rest are counts the run recorded. A run is flagged when any of these holds, in this order:
 *
 * - `nothing measured: every request fell in the 3s warm-up`: not one send after the warm-up (a count
 *   load spent in it, a run stopped before its first send), so every statistic is of nothing. The target
 *   may have answered the warm-up, so this is not `failed`: exit 0 unless `--strict` (6).
 * - `failed: no response (tls 160)`: not one request got any response, whatever the error kind (a TLS
 *   handshake the client refused, a refused connect, timeouts, resets: responses.ts says when). It
 *   replaces `lost`, which it includes, and makes the command exit 4 (cli/exit_codes.ts). A gRPC call the
 *   server answered with a status other than OK is a response: a run of them is never `failed`.
 * - `generator-bound` / `server-bound`: the runner's flags (who limited the run); a closed run's
 *   generator-bound flag names its evidence ("generator-bound: load worker saturated in 6 of 6 intervals":
 *   its thread ran or waited for a core nearly all the time, its timers late, generator_saturation.ts); a
 *   server-bound run served short of its requested rate says so ("server-bound: served 176 of 500 req/s"); a
 *   WebSocket storm's says it in connections ("server-bound: opened 35 of 100 conn/s, 2.0 of 5 messages
 *   each", ws_storm.ts).
 * - `short storm: opened 35 of 100 conn/s`: a storm that opened fewer connections than requested, sent
 *   fewer messages on each than asked, or whose connections outlasted the window (most messages after it),
 *   with neither flag above: its message rate alone would hide it.
 * - `ramp not followed: 470 of 3,000 connections at 1s`: a ramping-connections run that held under half
 *   the connections its stages planned in two intervals or more (ramp_followed.ts): its numbers describe
 *   a smaller crowd than the one asked for.
 * - `dropped X%`: sends dropped for being later than the bound, over 0.1% of the intended sends (the
 *   requested rate was not sent; a handful in a long run is shown but not flagged).
 * - `lost N`: requests that never got any answer, so no latency of theirs is in the percentiles: errors
 *   of kind `connect`, `timeout` and `unfinished` (still in flight when the run ended), over 0.1% of
 *   sends, as for dropped ones. The host's kernel listen-queue drops (`hostTcp`, when recorded) are named
 *   beside them as a likely cause, but never flag a run alone: they count every process of the host, and
 *   a busy machine's other listeners overflow without touching this run. `reset` and `closed-early` are not
 *   lost: the server answered by closing (the `errors` flag below).
 * - `unanswered N at the stop`: requests still waiting for an answer when a graceful stop longer than 0 ran
 *   out (`unfinished`), over 0.1% of sends: their latencies, the run's slowest, are not in the percentiles.
 *   A hard stop (`gracefulStop: 0s`) cuts what is in flight by design: shown beside the counts, no flag.
 * - `incomplete`: stopped early (Ctrl-C, the target died), or `incomplete: 1 worker stuck` when a load worker
 *   ran code that never yields (a capture's regexp) past the graceful stop and loadlab ended it: its
 *   requests in flight are `unfinished`, its counts since its last interval lost; `1 worker exited` when a
 *   session script ended a worker's isolate (`Deno.exit`), ended the same way at once; `count not reached
 *   within its max duration (10m 00s)` or `idle, every session waiting on its own code` when a count
 *   ended short of its count (`endedBy`); `loadlab's memory passed 2,048 MB` when loadlab's own memory
 *   passed its limit and the workers still running were ended there (`memoryCut`).
 * - `aborted at 12.0s by p99<100ms`: stopped early by a threshold with `abortOnFail`; it replaces
 *   `incomplete` and names the rule and the measured time, so the run's numbers carry why they are short.
 * - `warm-up not reached`: `warmup: auto` was asked and latency never stabilized, so the statistics
 *   include the warm-up.
 * - `data ran out in N worker(s)`: a `data:` source's rows ran out (`whenDone: stop`, `order: unique`),
 *   so those workers stopped starting arrivals before the load's end or count.
 * - `steered: rate 400/s at 1.0s, pause at 2.1s`: changed by hand while it ran (the live dashboard's
 *   controls, `loadlab steer`), so its numbers describe the load as steered, not as configured (the
 *   changes are in `steering`, and `loadlab run --replay` runs them again). A replayed schedule is no flag:
 *   it was planned.
 * - `errors 25% (closed-early 10)`: requests that failed without a response of any other kind (the
 *   server closed or reset the connection, a malformed or refused answer, a request refused past its
 *   re-sends, a value the session's data made unsendable: `ANSWERED_ERROR_KINDS`), and a session script's
 *   own failures (`script`: a throw, a dropped rejection, a session cut waiting on its own promise), over
 *   0.1% of sends; with them, gRPC calls the server answered with a status other than OK (`errors 50% (grpc
 *   INVALID_ARGUMENT 1,000)`: responses, their latencies in the percentiles, as ghz counts them).
 *   Like lost ones they have no latency in the percentiles, and a run whose success rate says 75% must not
 *   read `ok`. A GOAWAY or REFUSED_STREAM refusal that was sent again is no error: only its final outcome
 *   counts, and `retried` beside it.
 * - `server errors 25%`: 5xx responses over 0.1% of the responses: their latencies, the server's error
 *   path, are in the percentiles (responses.ts).
 * - `no success: not one response was 2xx/3xx (429 40)` (with the statuses that came back: every one a
 *   404, a 429 of a rate limiter...; for gRPC `not one call answered OK`), unless every one was a 5xx
 *   (`server errors 100%` says so). A run with answers is not `failed` whatever their status: it exits
 *   0 unless `--strict` (6) or a threshold such as `success>=99%` (1) says otherwise.
 * - `flooded: 1,259 unsolicited messages per answer (the echo rule takes any message: --ws-match is
 *   probably wrong)`: a WebSocket run whose rule takes whatever message comes next as the answer, and whose
 *   server sent two orders of magnitude more messages of its own than were answered (ws_flood.ts): its
 *   answers are likely the flood's, its round trips of nothing.
 * - `no session completed: 20 of 20 ended early (a capture found nothing in 20)`: a flow run whose every
 *   session ended before its last step (a failed capture, a failed request), so the later steps were
 *   never measured whatever the success rate of those that ran. Exit 0 as `no success`, 6 with `--strict`.
 *
 * Pure; imports only the results schema, what answers a run got (responses.ts), the counts of its sends
 * (send_counts.ts), the served-rate statements (served_rate.ts), a WebSocket storm's (ws_storm.ts) and
 * flood's (ws_flood.ts) and the load worker's saturation (generator_saturation.ts).
 */
import type { RunResult } from "../schema/results.ts";
import {
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
import { stormOutlastText, stormShortText } from "./ws_storm.ts";
import { wsFlood, wsFloodLabel } from "./ws_flood.ts";
import { generatorSaturation } from "./generator_saturation.ts";
import { atText, rampShortfall } from "./ramp_followed.ts";
import { abortedLabel, incompleteLabel, steeredLabel } from "./run_stops.ts";
import { changedBuiltIns } from "./builtin_changes.ts";
import { formatCount } from "../text_format.ts";

/**
 * The `failed` flag's words: no response, or (WebSocket) messages came but none was an answer the rule takes.
 */
function failedLabel(run: RunResult): string {
  const unsolicited = run.ws?.unsolicited ?? 0;
  if (unsolicited > 0) {
    return `failed: no answer its rule takes, ${formatCount(unsolicited)} other messages came ` +
      `(${errorKindsText(run)})`;
  }
  // Every session failed before or without a request (a script that throws, a k6/ws handler): no request
  // went unanswered, the script's own code failed.
  if (requestSendsOf(run) === 0) {
    return `failed: every session failed, none sent a request (${errorKindsText(run)})`;
  }
  return `failed: no response (${errorKindsText(run)})`;
}

/** What a flag says; `label` carries its number ("dropped 99.7%", "lost 12"). */
export type VerdictKind =
  | "nothing measured"
  | "failed"
  | "generator-bound"
  | "server-bound"
  | "dropped"
  | "lost"
  | "unanswered"
  | "incomplete"
  | "aborted"
  | "warm-up not reached"
  | "data ran out"
  | "steered"
  | "errors"
  | "server errors"
  | "no success"
  | "no session completed"
  | "short storm"
  | "ramp not followed"
  | "flooded";

/** One reason not to trust a run's numbers. */
export interface VerdictFlag {
  kind: VerdictKind;
  label: string;
}

/** The verdict of one run: `ok` with no flags, else the flags in a fixed order and one label of them. */
export interface RunVerdict {
  ok: boolean;
  flags: VerdictFlag[];
  /** "ok", or the flags' labels joined by ", " ("generator-bound, dropped 12%"). */
  label: string;
}

/**
 * Dropped sends, and lost requests, over this share of intended sends flag the run: a handful in a long
 * run is shown but does not fail `--strict` (a hard stop always leaves a connection's worth of
 * requests unfinished).
 */
export const DROPPED_FLAG_SHARE = 0.001;

/** The verdict of one run. */
export function runVerdict(run: RunResult): RunVerdict {
  const failed = noResponse(run);
  const flags: VerdictFlag[] = failed ? [{ kind: "failed", label: failedLabel(run) }] : [];
  if (nothingMeasured(run)) flags.push({ kind: "nothing measured", label: nothingMeasuredLabel(run) });
  flags.push(...boundFlags(run), ...countFlags(run, failed), ...stopFlags(run), ...answerFlags(run));
  const sessions = sessionsFlag(run);
  if (sessions) flags.push(sessions);
  // `failed` says every request got no answer: `lost` and `errors` would repeat it with a number.
  // Nor, when every session failed with no request, "no session completed".
  const repeated = new Set(failed ? ["lost", "errors"] : []);
  if (failed && requestSendsOf(run) === 0) repeated.add("no session completed");
  const shown = flags.filter((f) => !repeated.has(f.kind));
  return {
    ok: shown.length === 0,
    flags: shown,
    label: shown.length ? shown.map((f) => f.label).join(", ") : "ok",
  };
}

/**
 * The flags of who limited the run: generator-bound, server-bound, a storm that opened short, a ramp that
 * held fewer connections than its stages.
 */
function boundFlags(run: RunResult): VerdictFlag[] {
  const flags: VerdictFlag[] = [];
  if (run.generatorBound) flags.push({ kind: "generator-bound", label: generatorBoundLabel(run) });
  // A storm's rates are of connections: what it opened and sent each against what it was asked.
  const storm = stormShortText(run);
  if (run.serverBound) {
    flags.push({ kind: "server-bound", label: storm ? `server-bound: ${storm}` : serverBoundLabel(run) });
  }
  const short = [run.serverBound || run.generatorBound ? "" : storm, stormOutlastText(run)].filter((t) => t);
  if (short.length > 0) flags.push({ kind: "short storm", label: `short storm: ${short.join(", ")}` });
  const ramp = rampShortfall(run);
  if (ramp !== null) {
    const label = `ramp not followed: ${formatCount(ramp.open)} of ` +
      `${formatCount(ramp.planned)} connections at ${atText(ramp)}`;
    flags.push({ kind: "ramp not followed", label });
  }
  return flags;
}

/**
 * "generator-bound", or for a closed run judged by its load worker's thread "generator-bound: load worker
 * saturated in 6 of 6 intervals" (results/conclude/generator_saturation.ts).
 */
function generatorBoundLabel(run: RunResult): string {
  const busy = generatorSaturation(run.intervals);
  if (busy === null || !busy.bound) return "generator-bound";
  return `generator-bound: load worker saturated in ${busy.saturated} of ${busy.judged} intervals`;
}

/** The flags of sends past `DROPPED_FLAG_SHARE`: dropped, lost, unanswered at the stop, errors. */
function countFlags(run: RunResult, failed: boolean): VerdictFlag[] {
  const flags: VerdictFlag[] = [];
  const dropped = droppedShare(run);
  if (dropped > DROPPED_FLAG_SHARE) flags.push({ kind: "dropped", label: `dropped ${formatShare(dropped)}` });
  const lost = lostRequests(run);
  if (lost > DROPPED_FLAG_SHARE * sendsOf(run)) {
    const kernel = kernelDrops(run);
    const cause = kernel > 0 ? ` (the host's kernel dropped ${formatCount(kernel)} connects)` : "";
    flags.push({ kind: "lost", label: `lost ${formatCount(lost)}${cause}` });
  }
  const unanswered = unansweredAtStop(run);
  if (!failed && unanswered > DROPPED_FLAG_SHARE * sendsOf(run)) {
    flags.push({ kind: "unanswered", label: `unanswered ${formatCount(unanswered)} at the stop` });
  }
  const answered = answeredErrors(run);
  // A session script's own failures (a throw, a dropped rejection) end sessions as surely as a reset.
  const script = run.errors.script ?? 0;
  const total = answered.total + script;
  // A built-in the sessions changed broke the engine until it was put back: named whatever its share.
  const changed = changedBuiltIns(run.errorMessages?.script);
  const builtIns = changed.length > 0 ? `script changed ${changed.join(", ")} while it ran (put back)` : "";
  const base = errorShareBase(run);
  if (total > DROPPED_FLAG_SHARE * base) {
    const text = [answered.text, script > 0 ? `script ${formatCount(script)}` : "", builtIns]
      .filter((t) => t !== "").join(", ");
    flags.push({ kind: "errors", label: `errors ${formatShare(total / base)} (${text})` });
  } else if (builtIns !== "") flags.push({ kind: "errors", label: builtIns });
  return flags;
}

/** The flags of how the run went: aborted or incomplete, warm-up not reached, data ran out, steered. */
function stopFlags(run: RunResult): VerdictFlag[] {
  const flags: VerdictFlag[] = [];
  if (run.abortedBy) flags.push({ kind: "aborted", label: abortedLabel(run.abortedBy) });
  else if (run.incomplete) flags.push({ kind: "incomplete", label: incompleteLabel(run) });
  if (run.warmupNotReached) flags.push({ kind: "warm-up not reached", label: "warm-up not reached" });
  // Rows of a `data:` source ran out (`whenDone: stop`, `unique`): those workers stopped sending early.
  if (run.dataRanOutWorkers) {
    flags.push({ kind: "data ran out", label: `data ran out in ${run.dataRanOutWorkers} worker(s)` });
  }
  const steered = steeredLabel(run);
  if (steered) flags.push({ kind: "steered", label: steered });
  return flags;
}

/**
 * The flags of what the answers were: server errors, not one success, or a flood's messages taken as answers.
 */
function answerFlags(run: RunResult): VerdictFlag[] {
  const flags: VerdictFlag[] = [];
  const flood = wsFlood(run);
  if (flood !== null) flags.push({ kind: "flooded", label: wsFloodLabel(flood) });
  const serverErrors = serverErrorResponses(run);
  if (serverErrors > SERVER_ERROR_FLAG_SHARE * run.requests) {
    flags.push({ kind: "server errors", label: `server errors ${formatShare(serverErrors / run.requests)}` });
  }
  // The success rate is the run's own count of 2xx/3xx over sends: 0 with responses is "not one".
  if (run.requests > 0 && run.successRate === 0 && serverErrors < run.requests) {
    const statuses = statusCodesText(run);
    const what = statuses.startsWith("grpc ") ? "call answered OK" : "response was 2xx/3xx";
    const label = `no success: not one ${what}${statuses ? ` (${statuses})` : ""}`;
    flags.push({ kind: "no success", label });
  }
  return flags;
}

/** "nothing measured: every request fell in the 3s warm-up", or "...: no request was sent" without one. */
function nothingMeasuredLabel(run: RunResult): string {
  if (run.warmupSec > 0) return `nothing measured: every request fell in the ${run.warmupSec}s warm-up`;
  return "nothing measured: no request was sent";
}

/** The flag of a flow run whose every session ended early (none completed); null otherwise. */
function sessionsFlag(run: RunResult): VerdictFlag | null {
  const flows = run.flows ?? [];
  const started = flows.reduce((a, f) => a + f.sessions, 0);
  const ended = flows.reduce((a, f) => a + f.failed, 0);
  if (started === 0 || ended < started || flows.some((f) => f.completed > 0)) return null;
  const captures = flows.reduce((a, f) => a + (f.captureFailed ?? 0), 0);
  const cause = captures > 0 ? ` (a capture found nothing in ${formatCount(captures)})` : "";
  const n = formatCount;
  return {
    kind: "no session completed",
    label: `no session completed: ${n(ended)} of ${n(started)} ended early${cause}`,
  };
}

/** The runs (not capacity-search probes) whose verdict is not ok, with their verdicts. */
export function flaggedRuns(runs: RunResult[]): Array<{ run: RunResult; verdict: RunVerdict }> {
  return runs.filter((r) => !r.probe).map((run) => ({ run, verdict: runVerdict(run) })).filter((v) =>
    !v.verdict.ok
  );
}
