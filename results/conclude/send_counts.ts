/**
 * @module
 * What a run's sends came to (dropped, lost, unanswered, failed, listen-queue drops, open-run rates). Pure.
 */
import type { RunResult } from "../schema/results.ts";
import { ERROR_KINDS } from "../schema/keys.ts";
import { sendsOf } from "./responses.ts";
import { sumValues } from "../interval_counts.ts";
import { formatCount } from "../text_format.ts";

/** Error kinds whose requests got no answer at all. */
const LOST_ERROR_KINDS: readonly string[] = ["connect", "timeout", "unfinished"];

/** The kinds of requests the target failed: every kind but the lost ones and a script's own failure. */
const ANSWERED_ERROR_KINDS = ERROR_KINDS.filter((kind) =>
  kind !== "script" && !LOST_ERROR_KINDS.includes(kind)
);

/** Dropped sends as a share (0..1) of intended sends; 0 without sends. */
export function droppedShare(run: RunResult): number {
  const sends = sendsOf(run);
  return sends > 0 ? run.droppedSends / sends : 0;
}

/** " of sent, 12% of intended sends dropped": a success rate never stands alone beside dropped sends. */
export function successQualifier(run: RunResult): string {
  const unjudged = run.unjudged ? `; ${run.unjudged} answers unjudged (their requests expect no status)` : "";
  if (run.droppedSends === 0) return unjudged;
  return ` of sent; ${formatShare(droppedShare(run))} of intended sends dropped${unjudged}`;
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

/** Requests still unanswered when a graceful stop longer than 0 ran out. */
export function unansweredAtStop(run: RunResult): number {
  const unfinished = run.unfinished ?? 0;
  if (unfinished === 0) return 0;
  const stopMs = run.config.gracefulStopMs;
  return typeof stopMs === "number" && stopMs > 0 ? unfinished : 0;
}

/** Requests the target failed, without a response or with a non-OK gRPC status: their number and words. */
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
  const n = Math.max(run.hostTcp?.listenOverflows ?? 0, run.hostTcp?.listenDrops ?? 0);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** An open or throughput run's requested rate, sends made and dropped (the achieved rate is `run.rps`). */
export function sendFacts(run: RunResult) {
  return {
    /** The requested rate (req/s); null for closed models. */
    requestedRps: run.targetRps,
    /** Requests that went out (answered, failed, or unfinished when the graceful stop ran out). */
    sent: run.requests + sumValues(run.errors) + (run.unfinished ?? 0),
    /** Intended sends dropped for being later than the bound. */
    dropped: run.droppedSends,
    /** `dropped` over intended sends, 0..1. */
    droppedShare: droppedShare(run),
  };
}

/** Achieved req/s may exceed the requested rate by this share before it is labelled (short-run noise). */
const ACHIEVED_ABOVE_SHARE = 0.02;

/** True when an open run achieved more than its requested rate beyond noise: a late backlog. */
export function achievedAbove(run: RunResult): boolean {
  return run.targetRps !== null && run.targetRps > 0 && run.rps > run.targetRps * (1 + ACHIEVED_ABOVE_SHARE);
}
