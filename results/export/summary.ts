/**
 * @module
 * What a metrics output did, as results.json keeps it (`export`, one per `--out`). Pure.
 */
import { z } from "zod";

/** `otlp` sends OTLP/HTTP's default encoding, protobuf; `otlp-json` its JSON encoding. */
export const METRICS_OUT_KINDS = ["prometheus-remote-write", "otlp", "otlp-json"] as const;
export type MetricsOutKind = (typeof METRICS_OUT_KINDS)[number];

const count = z.number().int().min(0);

export const exportSummarySchema = z.looseObject({
  kind: z.enum(METRICS_OUT_KINDS),
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

/** "metrics out: prometheus-remote-write 120 intervals sent, 0 dropped" (failures with the last error). */
export function exportLine(s: ExportSummary): string {
  return `metrics out: ${exportClause(s)}`;
}

/** "otlp 0 intervals sent, 0 dropped, 33 failed (last error: ...)": one output, as the terminal says it. */
function exportClause(s: ExportSummary): string {
  const failed = s.intervalsFailed > 0 ? `, ${s.intervalsFailed} failed` : "";
  const error = s.lastError !== undefined && (s.intervalsFailed > 0 || s.retries > 0)
    ? ` (last error: ${s.lastError})`
    : "";
  return `${s.kind} ${s.intervalsSent} intervals sent, ${s.intervalsDropped} dropped${failed}${error}`;
}

/** Points an output did not deliver (dropped or failed): its receiver's series have gaps or end early. */
export function undelivered(s: ExportSummary): number {
  return s.intervalsDropped + s.intervalsFailed;
}

/** The outputs in one line for a report's header, "incomplete at the receiver" when points were lost. */
export function exportNote(summaries: ExportSummary[] | undefined): string | null {
  if (!summaries?.length) return null;
  return summaries.map((s) => {
    const missing = undelivered(s);
    const total = missing + s.intervalsSent;
    return `${exportClause(s)} to ${s.url}` +
      (missing > 0 ? ` — incomplete at the receiver: ${missing} of ${total} not delivered` : "");
  }).join("; ");
}
