/**
 * @module
 * What answers a run got: none (`failed`, exit 4), server errors past `SERVER_ERROR_FLAG_SHARE`, no success,
 * none after the warm-up, whether a statistic has samples (else "-"), a script changing a JS built-in. Pure.
 */
import type { IntervalResult, LatencySummaryMs, RunResult } from "../schema/results.ts";
import { formatCount } from "../text_format.ts";
import { sumValues } from "../interval_counts.ts";

/** 5xx responses over this share of the responses flag the run; a handful is shown, not flagged. */
export const SERVER_ERROR_FLAG_SHARE = 0.001;

/** Every send the run attempted: answered, failed, dropped, or unfinished at the graceful stop. */
export function sendsOf(run: RunResult): number {
  return run.requests + sumValues(run.errors) + run.droppedSends + (run.unfinished ?? 0);
}

/** The sends that were requests: a session's own failure (`script`) sent none. */
export function requestSendsOf(run: RunResult): number {
  return sendsOf(run) - (run.errors.script ?? 0);
}

/** Requests that got no answer, by kind, less script and `ws-` errors (not HTTP requests, as in k6). */
export function unansweredRequests(run: Pick<RunResult, "errors">): number {
  const kinds = Object.entries(run.errors).filter(([kind]) => kind !== "script" && !kind.startsWith("ws-"));
  return kinds.reduce((a, [, n]) => a + (n ?? 0), 0);
}

/** True when the run sent nothing after its warm-up (nor dropped a send): not one request was measured. */
export function nothingMeasured(run: RunResult): boolean {
  return sendsOf(run) === 0 && !sessionsOwnWork(run);
}

/** Sessions ended that opened WebSocket connections of their own (a k6/ws script): work with no request. */
function sessionsOwnWork(run: RunResult): boolean {
  return sessionsEnded(run) > 0 && (run.ws?.handshakes ?? 0) > 0;
}

/** The run's script or flow sessions that ended, completed or failed. */
export function sessionsEnded(run: RunResult): number {
  return (run.flows ?? []).reduce((a, f) => a + f.completed + f.failed, 0);
}

/** The success rate to print: NaN ("-") when nothing was measured, no response came or none was judged. */
export function measuredSuccessRate(run: RunResult): number {
  const none = requestSendsOf(run) === 0 || (run.requests === 0 && !noResponse(run));
  return none || run.unjudged === run.requests + sumValues(run.errors) ? Number.NaN : run.successRate;
}

/** True when the run meant to send and not one response came back, any error kind. */
export function noResponse(run: RunResult): boolean {
  return run.requests === 0 && sendsOf(run) > 0 && ownSocketAnswers(run) === 0;
}

/** Messages on the sessions' own WebSocket connections (k6/ws) that answered a send. */
function ownSocketAnswers(run: RunResult): number {
  return Math.max(0, (run.ws?.messagesReceived ?? 0) - (run.ws?.unsolicited ?? 0));
}

/** What a run's errors are a share of: its sends, or its own WebSocket connections when more. */
export function errorShareBase(run: RunResult): number {
  if (run.requests > 0 || noResponse(run)) return sendsOf(run);
  return Math.max(sendsOf(run), run.ws?.handshakes ?? 0);
}

/** True when a run's or an interval's latency has samples; without, a printer shows "-", not the stored 0. */
export function latencySampled(counts: Pick<IntervalResult, "requests" | "unrecordedLatencies">): boolean {
  return counts.requests - (counts.unrecordedLatencies ?? 0) > 0;
}

/** Whether `responses` latencies reach a tail beyond percentile `p` (a p99 needs 100, a p95 20). */
export function percentileSampled(responses: number, p: number): boolean {
  return Math.round(responses * (100 - p)) >= 100;
}

/** The latency summary to print: every field NaN when the run has no samples, not the stored 0. */
export function sampledLatency(run: RunResult, summary: LatencySummaryMs = run.latencyMs): LatencySummaryMs {
  return latencySampled(run) ? summary : unmeasuredMs(summary);
}

/** `summary` with every field NaN: latency not measured, shown as "-", never as 0 ms. */
export function unmeasuredMs(summary: LatencySummaryMs): LatencySummaryMs {
  return Object.fromEntries(Object.keys(summary).map((k) => [k, Number.NaN])) as LatencySummaryMs;
}

/** Responses with a 5xx status; 0 when the run recorded no status codes. */
export function serverErrorResponses(run: RunResult): number {
  return Object.entries(run.statusCodes ?? {}).reduce((a, [code, n]) => {
    const status = Number(code);
    return status >= 500 && status < 600 ? a + (n ?? 0) : a;
  }, 0);
}

/** "429 40", "404 12, 401 8": a run's status codes, most first (at most `STATUSES_NAMED`, then "..."). */
export function statusCodesText(run: RunResult): string {
  const codes = countsText(Object.entries(run.statusCodes ?? {}));
  return codes.slice(0, STATUSES_NAMED).join(", ") + (codes.length > STATUSES_NAMED ? ", ..." : "");
}

const STATUSES_NAMED = 3;

/** "tls 160", "connect 90, timeout 3": a run's error kinds, most first; "no request sent" without any. */
export function errorKindsText(run: RunResult): string {
  const kinds = countsText([...Object.entries(run.errors), ["unfinished", run.unfinished]]);
  return kinds.length === 0 ? "no request sent" : kinds.join(", ");
}

/** `key count` of each count above 0, most first (ties by key). */
function countsText(counts: Array<[string, number | undefined]>): string[] {
  const kept = counts.filter((c): c is [string, number] => (c[1] ?? 0) > 0);
  kept.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return kept.map(([key, n]) => `${key} ${formatCount(n)}`);
}

const CHANGED = ": a session changed ";
const RELIED_ON =
  ", which loadlab's engine in its isolate relies on: put back; keep the script's helpers on " +
  "objects of its own";

/** The `script` error message of a change to built-in `name` by the sessions of script file `script`. */
export function builtInChangeMessage(script: string, name: string): string {
  return `${script}${CHANGED}${name}${RELIED_ON}`;
}

/** The built-ins a run's sessions changed, from its `script` error messages. */
export function changedBuiltIns(messages: Readonly<Record<string, number>> | undefined): string[] {
  const names: string[] = [];
  for (const message of Object.keys(messages ?? {})) {
    const at = message.indexOf(CHANGED);
    if (at < 0 || !message.endsWith(RELIED_ON)) continue;
    names.push(message.slice(at + CHANGED.length, message.length - RELIED_ON.length));
  }
  return names;
}
