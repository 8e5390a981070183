/**
 * @module
 * What answers a run got, as the results file counts them: none at all (every send failed, whatever the
 * error kind: a TLS handshake the client refused, a refused connect, a timeout, a reset), server errors
 * (5xx), or responses of which not one succeeded (no 2xx/3xx). The run verdict (run_verdict.ts) turns these
 * into its `failed`, `server errors` and `no success` flags, the exit codes read `failed` (exit 4), and the
 * printers read `latencySampled` so a statistic with no samples prints "-", never "0 ms".
 *
 * Preconditions, one per statement:
 * - "failed" (no response): the run meant to send (`sendsOf` > 0: answered, failed, dropped or unfinished
 *   by the graceful stop: a server that never answers leaves only unfinished requests) and not one
 *   response came back (`requests` = 0). A run that meant to send nothing is not failed: there was nothing
 *   to answer.
 * - "server errors": 5xx responses over `SERVER_ERROR_FLAG_SHARE` of the responses. Their latencies are
 *   in the percentiles (the server's error path, often its fastest), so the run's latency is not the
 *   latency of the service the target gives; the success rate counts them as failures too.
 * - "nothing measured": the run sent nothing after its warm-up (`sendsOf` = 0): a count load whose every
 *   request fell in the warm-up, a run stopped before its first send. Its success rate is no statistic
 *   (`measuredSuccessRate` is NaN, printed "-"), not the 0 the schema stores. Not said of a script whose
 *   sessions ended having opened WebSocket connections of their own (k6/ws): they measured sessions,
 *   handshakes and messages, with no HTTP request to count.
 * - "no success": responses came back and the success rate is 0 (not one 2xx or 3xx: a 404 for every
 *   request, so the run measured the wrong path). Not said when every response was a 5xx ("server
 *   errors 100%" says it).
 *
 * - A run whose sessions received WebSocket messages on connections of their own (k6/ws) with no HTTP
 *   response got answers all the same: not "failed"; its errors are a share of those connections.
 *
 * Pure; imports only the results schema.
 */
import type { IntervalResult, LatencySummaryMs, RunResult } from "../schema/results.ts";
import { formatCount } from "../text_format.ts";

/**
 * 5xx responses over this share of the responses flag the run, as dropped sends and lost requests over
 * the same share do (run_verdict.ts): a handful in a long run is shown in the status codes, not flagged.
 */
export const SERVER_ERROR_FLAG_SHARE = 0.001;

/**
 * Every send the run attempted: answered, failed, dropped for being too late, or still unanswered when the
 * graceful stop ran out (unfinished: not a failure of the target, but a send all the same).
 */
export function sendsOf(run: RunResult): number {
  return run.requests + errorCount(run) + run.droppedSends + (run.unfinished ?? 0);
}

/**
 * The sends that were requests: a session's own failure (`script`, the error a session that threw is
 * counted under) sent none. 0 for a script whose every session failed before, or without, a request.
 */
export function requestSendsOf(run: RunResult): number {
  return sendsOf(run) - (run.errors.script ?? 0);
}

/** Every error of a run, any kind. */
export function errorCount(run: RunResult): number {
  return Object.values(run.errors).reduce((a: number, n) => a + (n ?? 0), 0);
}

/** True when the run sent nothing after its warm-up (nor dropped a send): not one request was measured. */
export function nothingMeasured(run: RunResult): boolean {
  return sendsOf(run) === 0 && !sessionsOwnWork(run);
}

/** Sessions ended that opened WebSocket connections of their own (a k6/ws script): work with no request. */
export function sessionsOwnWork(run: RunResult): boolean {
  return sessionsEnded(run) > 0 && (run.ws?.handshakes ?? 0) > 0;
}

/** The run's script or flow sessions that ended, completed or failed. */
export function sessionsEnded(run: RunResult): number {
  return (run.flows ?? []).reduce((a, f) => a + f.completed + f.failed, 0);
}

/**
 * The success rate to print: the run's own, or NaN ("-") when nothing was measured or only its sessions'
 * own WebSocket connections answered (no HTTP response to rate).
 */
export function measuredSuccessRate(run: RunResult): number {
  return requestSendsOf(run) === 0 || (run.requests === 0 && !noResponse(run)) ? Number.NaN : run.successRate;
}

/**
 * True when the run meant to send and not one response came back (any error kind, TLS included). A
 * message received on a WebSocket the sessions opened themselves (a k6/ws script) is an answer too: such
 * a run has no HTTP response to count, and its sockets' errors (a message past the cap) are not silence.
 */
export function noResponse(run: RunResult): boolean {
  return run.requests === 0 && sendsOf(run) > 0 && ownSocketAnswers(run) === 0;
}

/**
 * Messages received on WebSocket connections the sessions opened themselves (k6/ws) that answered: the
 * messages received less those that answered no send (a flow's message its rule did not take is one).
 */
function ownSocketAnswers(run: RunResult): number {
  return Math.max(0, (run.ws?.messagesReceived ?? 0) - (run.ws?.unsolicited ?? 0));
}

/**
 * What a run's errors are a share of: its sends, or for a run answered only on its sessions' own
 * WebSocket connections (no HTTP response, messages received) the connections it opened when more: one
 * socket's error among 58 sessions' sockets is 2% of them, not 100% of the one send it counted.
 */
export function errorShareBase(run: RunResult): number {
  if (run.requests > 0 || noResponse(run)) return sendsOf(run);
  return Math.max(sendsOf(run), run.ws?.handshakes ?? 0);
}

/**
 * True when the run's latency statistics have samples (at least one response whose latency was recorded:
 * not one a stuck worker counted after its last sample). Without any, a printer shows "-" for each
 * latency cell: the schema stores 0 there, which would read as "0 ms".
 */
export function latencySampled(run: RunResult): boolean {
  return run.requests - (run.unrecordedLatencies ?? 0) > 0;
}

/** The same of one interval: its latency fields are 0 in the schema when it recorded none. */
export function intervalLatencySampled(iv: IntervalResult): boolean {
  return iv.requests - (iv.unrecordedLatencies ?? 0) > 0;
}

/**
 * The latency summary to print: the run's own, or every field NaN when it has no samples, so each
 * formatter prints its "no value" mark ("-" in the terminal, "–" in the page and CI files; NaN goes to
 * JSON as null) instead of the 0 the schema stores.
 */
export function sampledLatency(run: RunResult, summary: LatencySummaryMs = run.latencyMs): LatencySummaryMs {
  if (latencySampled(run)) return summary;
  return Object.fromEntries(Object.keys(summary).map((k) => [k, Number.NaN])) as LatencySummaryMs;
}

/** Responses with a 5xx status; 0 when the run recorded no status codes. */
export function serverErrorResponses(run: RunResult): number {
  return Object.entries(run.statusCodes ?? {}).reduce((a, [code, n]) => {
    const status = Number(code);
    return status >= 500 && status < 600 ? a + (n ?? 0) : a;
  }, 0);
}

/**
 * "429 40", "404 12, 401 8": the status codes a run got, most first (at most `STATUSES_NAMED`, then "...").
 */
export function statusCodesText(run: RunResult): string {
  const codes = Object.entries(run.statusCodes ?? {}).filter(([, n]) => (n ?? 0) > 0)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0) || a[0].localeCompare(b[0]));
  const named = codes.slice(0, STATUSES_NAMED).map(([code, n]) => `${code} ${formatCount(n ?? 0)}`);
  return named.join(", ") + (codes.length > STATUSES_NAMED ? ", ..." : "");
}

/** The most status codes a verdict label names. */
const STATUSES_NAMED = 3;

/**
 * "tls 160", "connect 90, timeout 3": the error kinds of a run, most first; "no request sent" without any.
 */
export function errorKindsText(run: RunResult): string {
  const counted: [string, number | undefined][] = [...Object.entries(run.errors), [
    "unfinished",
    run.unfinished,
  ]];
  const kinds = counted.filter(([, n]) => (n ?? 0) > 0)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0) || a[0].localeCompare(b[0]));
  if (kinds.length === 0) return "no request sent";
  return kinds.map(([kind, n]) => `${kind} ${formatCount(n ?? 0)}`).join(", ");
}
