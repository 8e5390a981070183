/**
 * @module
 * What a run's sends came to, counted from the results file: the share dropped for being late, the
 * requests that never got an answer (lost, or still waiting when a graceful stop ran out), the ones the
 * target failed without a response, the host's kernel listen-queue drops, and an open run's requested rate
 * beside what it sent and achieved. The run verdict (run_verdict.ts) flags these counts past its shares and
 * the reports show them beside it, so both read them from here and the two never disagree. Apart from the
 * verdict because they are numbers, not judgements. Pure; imports only the results schema and what answers
 * a run got (responses.ts).
 */
import type { RunResult } from "../schema/results.ts";
import { GRPC_ERROR_KINDS } from "../schema/values.ts";
import { errorCount, sendsOf } from "./responses.ts";
import { formatCount } from "../text_format.ts";

/** Error kinds whose requests got no answer at all. */
export const LOST_ERROR_KINDS = ["connect", "timeout", "unfinished"] as const;

/**
 * Error kinds of requests that failed without a response the percentiles hold: the target closed or reset
 * the connection, or answered in a way loadlab could not read or that refused the stream; or the session's
 * own data made the request unsendable (`bad-value`: a filled value with CR, LF or NUL) or its answer
 * unkeepable (`body-too-large`: past the step's `maxKeptBytes`); or a gRPC call whose answer broke gRPC's
 * framing, or one refused unsent by gRPC's own rule (`grpc RESOURCE_EXHAUSTED`: past `--max-send`). `goaway`
 * and `h2-refused-stream` count a request only once its re-sends are spent (refused 4 times): a refusal sent
 * again is no error.
 */
export const ANSWERED_ERROR_KINDS = [
  "reset",
  "closed-early",
  "parse",
  "write",
  "tls",
  "h2-protocol",
  "h2-refused-stream",
  "goaway",
  "bad-value",
  "body-too-large",
  "ws-refused",
  "ws-bad-accept",
  "ws-handshake",
  "ws-protocol",
  "ws-too-big",
  "ws-bad-utf8",
  "ws-closed",
  ...GRPC_ERROR_KINDS,
] as const;

/** Kernel listen-queue drop counters a run may carry (deltas over the run), when recorded. */
interface HostTcp {
  listenOverflows?: number;
  listenDrops?: number;
}

/** Dropped sends as a share (0..1) of intended sends; 0 without sends. */
export function droppedShare(run: RunResult): number {
  const sends = sendsOf(run);
  return sends > 0 ? run.droppedSends / sends : 0;
}

/** A share as a short percentage: "93%", "0.4%", "0%"; "-" when not finite. */
export function formatShare(share: number): string {
  if (!Number.isFinite(share)) return "-";
  const pct = share * 100;
  if (pct === 0) return "0%";
  if (pct < 1) return `${Number(pct.toFixed(pct < 0.1 ? 2 : 1))}%`;
  return pct > 99 && pct < 100 ? `${pct.toFixed(1)}%` : `${Math.round(pct)}%`;
}

/** Requests that never got an answer (`LOST_ERROR_KINDS`). */
export function lostRequests(run: RunResult): number {
  return LOST_ERROR_KINDS.reduce((a, kind) => a + (run.errors[kind] ?? 0), 0);
}

/**
 * Requests still unanswered when a graceful stop longer than 0 ran out: they waited the whole stop, so
 * the slowest latencies are missing from the percentiles (as lost ones are), whatever cut them. 0 when the
 * experiment asked for a hard stop (`gracefulStop: 0s` cuts what is in flight by design: shown, no flag).
 */
export function unansweredAtStop(run: RunResult): number {
  const unfinished = run.unfinished ?? 0;
  if (unfinished === 0) return 0;
  const stopMs = run.config.gracefulStopMs;
  return typeof stopMs === "number" && stopMs > 0 ? unfinished : 0;
}

/**
 * Requests the target failed: without a response (`ANSWERED_ERROR_KINDS`), or (gRPC) answered with a status
 * other than OK (a response, among the status codes); their number and "reset 9, grpc INVALID_ARGUMENT 1".
 */
export function answeredErrors(run: RunResult): { total: number; text: string } {
  const statuses = Object.entries(run.statusCodes ?? {}).filter(([key]) => key.startsWith("grpc "));
  const kinds = [...ANSWERED_ERROR_KINDS.map((kind) => [kind, run.errors[kind] ?? 0] as const), ...statuses]
    .filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  return {
    total: kinds.reduce((a, [, n]) => a + n, 0),
    text: kinds.map(([kind, n]) => `${kind} ${formatCount(n)}`).join(", "),
  };
}

/** Connections the host's kernel dropped from a full listen queue during the run; 0 when not recorded. */
export function kernelDrops(run: RunResult): number {
  const host = (run as { hostTcp?: HostTcp }).hostTcp;
  if (!host || typeof host !== "object") return 0;
  const n = Math.max(host.listenOverflows ?? 0, host.listenDrops ?? 0);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** What an open or throughput run was asked for and what it did, side by side. */
export interface SendFacts {
  /** The requested rate (req/s); null for closed models. */
  requestedRps: number | null;
  /** Requests that went out (answered, failed, or unfinished when the graceful stop ran out). */
  sent: number;
  /** Intended sends dropped for being later than the bound. */
  dropped: number;
  /** `dropped` over intended sends, 0..1. */
  droppedShare: number;
}

/** The requested rate, sends made and dropped of a run (the achieved rate is `run.rps`). */
export function sendFacts(run: RunResult): SendFacts {
  return {
    requestedRps: run.targetRps,
    sent: run.requests + errorCount(run) + (run.unfinished ?? 0),
    dropped: run.droppedSends,
    droppedShare: droppedShare(run),
  };
}

/**
 * Achieved req/s may exceed the requested rate by this share before it is labelled (noise of a short run).
 */
export const ACHIEVED_ABOVE_SHARE = 0.02;

/**
 * True when an open or throughput run achieved more than the requested rate beyond noise: responses
 * count by their intended send since the warm-up cut, so this is a backlog of the run's own late sends
 * caught up in the window, which the reader must see labelled rather than read as spare capacity.
 */
export function achievedAbove(run: RunResult): boolean {
  return run.targetRps !== null && run.targetRps > 0 && run.rps > run.targetRps * (1 + ACHIEVED_ABOVE_SHARE);
}
