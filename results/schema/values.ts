/**
 * @module
 * The small value schemas every part of `results.json` is built from: the list of load models and error
 * kinds, a latency that JSON may have turned into `null` (read back as NaN, so the page shows a dash), a
 * count that reads `null` as 0, maps of counts by key, and the latency summary, percentile point,
 * histogram bucket and sweep point. One place, so a run, an interval and a phase read a latency the same
 * way. Pure; results/schema/results.ts assembles the file from these.
 */
import { z } from "zod";
import { encodingProblem } from "../histogram_v2.ts";

/** The load models an executor implements; the one list of them. */
export const LOAD_MODELS = ["connections", "rate", "throughput", "count", "ramping-connections"] as const;
/**
 * gRPC's error kinds: an answer that broke gRPC over HTTP/2 (no trailers, a missing or garbled
 * grpc-status, a content-type not gRPC's, a bad message prefix, a compressed message without
 * grpc-encoding, a stream ending inside a message), a message past the receive cap; then a call answered
 * with a status other than OK, by its code's name (code k at index k + 1). Each is a request that failed
 * with an answer, so the run verdict's answered errors (conclude/send_counts.ts) list them too.
 */
export const GRPC_ERROR_KINDS = [
  "grpc-protocol",
  "grpc-too-big",
  "grpc CANCELLED",
  "grpc UNKNOWN",
  "grpc INVALID_ARGUMENT",
  "grpc DEADLINE_EXCEEDED",
  "grpc NOT_FOUND",
  "grpc ALREADY_EXISTS",
  "grpc PERMISSION_DENIED",
  "grpc RESOURCE_EXHAUSTED",
  "grpc FAILED_PRECONDITION",
  "grpc ABORTED",
  "grpc OUT_OF_RANGE",
  "grpc UNIMPLEMENTED",
  "grpc INTERNAL",
  "grpc UNAVAILABLE",
  "grpc DATA_LOSS",
  "grpc UNAUTHENTICATED",
] as const;
/**
 * A call the server answered with a gRPC status other than OK is a response (a request, its latency in
 * the percentiles), counted among the status codes under its kind's name ("grpc INVALID_ARGUMENT"): in
 * the recorders' counts at slot `GRPC_STATUS_SLOTS_FROM + code`, past the HTTP statuses (000-999).
 */
export const GRPC_STATUS_SLOTS_FROM = 1000;
/** Status slots of a recorder's counts: the HTTP statuses, then gRPC's codes. */
export const STATUS_SLOTS = GRPC_STATUS_SLOTS_FROM + 17;

/** The slot `status` counts at: itself (000-999, or a gRPC status's slot), else 0 ("no valid status"). */
export function statusSlotOf(status: number): number {
  return status >= 0 && status < STATUS_SLOTS && status !== GRPC_STATUS_SLOTS_FROM ? status : 0;
}

/** The status-code key of recorder slot `slot`: an HTTP status's number, or a gRPC status's kind. */
export function statusKey(slot: number): string {
  return slot < GRPC_STATUS_SLOTS_FROM ? String(slot) : GRPC_ERROR_KINDS[slot - GRPC_STATUS_SLOTS_FROM + 1];
}
/**
 * Error kinds counted on the hot path; never one object per failure. `unfinished`: a request still
 * unanswered when the graceful stop ended (sent, neither answered nor timed out).
 */
export const ERROR_KINDS = [
  "connect",
  "timeout",
  "reset",
  "parse",
  "closed-early",
  "write",
  "tls",
  "unfinished",
  // HTTP/2: a frame that broke the protocol (or a stream reset other than REFUSED_STREAM), a request the
  // server refused with RST_STREAM REFUSED_STREAM past its re-sends, a GOAWAY's (older files: every stream
  // a GOAWAY refused; now sent again).
  "h2-protocol",
  "h2-refused-stream",
  "goaway",
  // A filled value (a capture, a data-file field) that may not go where its placeholder is: CR, LF or
  // NUL in a header or the path, or an HTTP/2 field value with a space at an end. The request is not sent.
  "bad-value",
  // A response past the bytes its flow step keeps for captures and checks (`maxKeptBytes`, 1 MiB unless
  // set): the connection (HTTP/2: the stream) is closed, the step fails. Also a capture that would take a
  // session's captures past 16 MiB in all: not kept, the session ends.
  "body-too-large",
  // WebSocket: the handshake refused (a status other than 101, named in the message), a wrong
  // Sec-WebSocket-Accept, an answer that is no upgrade (no Upgrade or Connection field, an extension or
  // subprotocol never offered); a frame that broke RFC 6455; a message past the cap; a text message that
  // is not UTF-8; the connection closed (by a close frame or without one) with a message unanswered.
  "ws-refused",
  "ws-bad-accept",
  "ws-handshake",
  "ws-protocol",
  "ws-too-big",
  "ws-bad-utf8",
  "ws-closed",
  // A session script's own failure (a throw, a request it could not send, an unhandled rejection),
  // counted per message with the script's file:line; the session ends, the run goes on.
  "script",
  ...GRPC_ERROR_KINDS,
] as const;

/** A float that JSON.stringify wrote as null (NaN, Infinity): read back as "no value". */
export const num = z.number().nullable().transform((v) => v ?? Number.NaN);
/** Why a negative count is refused: it would be drawn and judged as if it were one. */
const NEGATIVE_COUNT = "a count is 0 or more; restore the file loadlab wrote";
/** A counter; null (a file written by hand, or an older writer) reads as 0. */
export const count = z.number().min(0, NEGATIVE_COUNT).nullable().transform((v) => v ?? 0);
/**
 * A histogram as results carry it: HdrHistogram's compressed base64 encoding of microseconds. One that
 * cannot be read is refused here, by its path, before a report or a gate adds it.
 */
export const histogramEncoding = z.string().superRefine((encoded, ctx) => {
  const problem = encodingProblem(encoded);
  if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
});
/** Counts by key: status codes, error kinds. */
export const counts = z.record(z.string(), z.number().min(0, NEGATIVE_COUNT));

/**
 * The percentiles of a latency summary, lowest first: each at least the one before (`percentilesInOrder`).
 */
const PERCENTILE_KEYS = [
  "p2_5",
  "p10",
  "p25",
  "p50",
  "p75",
  "p90",
  "p95",
  "p97_5",
  "p99",
  "p999",
  "p9999",
] as const;

export const latencySummarySchema = z.looseObject({
  min: num,
  mean: num,
  stdev: num,
  p2_5: num,
  p10: num,
  p25: num,
  p50: num,
  p75: num,
  p90: num,
  p95: num,
  p97_5: num,
  p99: num,
  p999: num,
  p9999: num,
  max: num,
}).superRefine((summary, ctx) => {
  const problem = percentilesOutOfOrder(summary);
  if (problem !== null) ctx.addIssue({ code: "custom", path: [problem.key], message: problem.message });
});

/**
 * The first percentile below the one before it (a p99 under the p50 is no distribution: a report would
 * draw it and a gate judge it as one), or null. Values with none recorded (NaN) are skipped.
 */
function percentilesOutOfOrder(
  summary: Record<(typeof PERCENTILE_KEYS)[number], number>,
): { key: string; message: string } | null {
  let lastKey = "", last = -Infinity;
  for (const key of PERCENTILE_KEYS) {
    const v = summary[key];
    if (!Number.isFinite(v)) continue;
    // A hair below: a value rounded on its way through a merge is no disorder.
    if (v < last - Math.abs(last) * 1e-9) {
      return {
        key,
        message: `percentiles rise from p2_5 to p9999, found ${key} ${v} below ${lastKey} ${last}; ` +
          "restore the file loadlab wrote",
      };
    }
    lastKey = key, last = v;
  }
  return null;
}

/** The percentile fields of a latency summary (its known keys, without the pass-through ones). */
export type LatencyKey = keyof typeof latencySummarySchema.shape;

/** One point of the percentile distribution curve (HDR-style plot). */
export const percentilePointSchema = z.looseObject({ percentile: z.number(), latencyMs: num });
/** One histogram bar: `count` requests with latency in [fromMs, toMs). */
export const histogramBucketSchema = z.looseObject({
  fromMs: z.number(),
  toMs: z.number(),
  // A bar's length is drawn from its count: a negative one is no count, and cannot be drawn.
  count: z.number().min(0),
});
/** The value of a swept parameter of an experiment: a number, or a word (`load.protocol` = `h2`). */
export const sweepPointSchema = z.looseObject({
  parameter: z.string(),
  value: z.union([z.number(), z.string()]),
});
