/**
 * @module
 * What a metrics output did, as results.json keeps it (`export`, one entry per `--out KIND=URL`) and the
 * terminal prints it: points (one per run and interval) sent and acknowledged, dropped (the queue was
 * full, or the flush at the end ran out of time) and failed (the receiver refused them or could not be
 * reached after the retries), the POSTs and retries made and the last error. Cumulative counters lose
 * nothing when a point is dropped or failed: the next point sent carries the totals. Pure.
 */
import { z } from "zod";

/** `otlp` sends OTLP/HTTP's default encoding, protobuf; `otlp-json` its JSON encoding. */
export const METRICS_OUT_KINDS = ["prometheus-remote-write", "otlp", "otlp-json"] as const;
export type MetricsOutKind = (typeof METRICS_OUT_KINDS)[number];

const count = z.number().int().min(0);

/** One output's record in results.json. */
export const exportSummarySchema = z.looseObject({
  kind: z.enum(METRICS_OUT_KINDS),
  /** The receiver, without credentials. */
  url: z.string(),
  /** Points (one per run and interval) the receiver acknowledged. */
  intervalsSent: count,
  /** Points never sent: the queue was full (oldest dropped) or the flush at the end ran out of time. */
  intervalsDropped: count,
  /** Points the receiver refused or that could not be delivered after the retries. */
  intervalsFailed: count,
  posts: count,
  retries: count,
  lastError: z.string().optional(),
});

export type ExportSummary = z.output<typeof exportSummarySchema>;

/** "metrics out: prometheus-remote-write 120 intervals sent, 0 dropped" (and failures with the last error). */
export function exportLine(s: ExportSummary): string {
  const failed = s.intervalsFailed > 0 ? `, ${s.intervalsFailed} failed` : "";
  const error = s.lastError !== undefined && (s.intervalsFailed > 0 || s.retries > 0)
    ? ` (last error: ${s.lastError})`
    : "";
  return `metrics out: ${s.kind} ${s.intervalsSent} intervals sent, ${s.intervalsDropped} dropped${failed}${error}`;
}
