/**
 * @module
 * Adds `ws` sections (workers, shards): counters summed, times from added HDR encodings (null if none).
 */
import { defined } from "../validation/defined.ts";
import { encodeHistogram, mergeEncoded, summarizeMs } from "./histogram.ts";
import type { z } from "zod";
import type { WsResult, wsResultSchema } from "./schema/ws.ts";
import { addCounts } from "./interval_counts.ts";

/** What adds: a shard's `ws` section or a worker's sample; an unencoded summary stays only as a sole part. */
export type WsParts =
  & Omit<z.output<z.ZodObject<typeof wsResultSchema.shape>>, "handshakeMs" | "fanoutMs">
  & Partial<Pick<WsResult, "handshakeMs" | "fanoutMs">>;

const COUNTERS = [
  "handshakes",
  "messagesSent",
  "messagesReceived",
  "payloadBytesSent",
  "payloadBytesReceived",
  "unsolicited",
  "pingsSent",
  "pongsReceived",
  "closesSent",
] as const;

/** One timing of the parts added: its summary and encoding, or null summary when it cannot be exact. */
function addTimes(
  parts: readonly WsParts[],
  encodingOf: (p: WsParts) => string | undefined,
  summaryOf: (p: WsParts) => WsResult["handshakeMs"] | undefined,
): { summary: WsResult["handshakeMs"]; encoded?: string } {
  // A part with a summary but no encoding recorded times that cannot be added.
  const lost = parts.some((p) => encodingOf(p) === undefined && (summaryOf(p) ?? null) !== null);
  if (lost) return { summary: parts.length === 1 ? summaryOf(parts[0]) ?? null : null };
  const present = parts.flatMap((p) => encodingOf(p) ?? []);
  if (present.length === 0) return { summary: null };
  const histogram = mergeEncoded(present);
  return { summary: summarizeMs(histogram), encoded: encodeHistogram(histogram) };
}

/** The parts' `ws` sections (or samples) added into one section. */
export function addWsParts(parts: readonly WsParts[]): WsResult {
  const closeCodes: Record<string, number> = {};
  for (const p of parts) addCounts(closeCodes, p.closeCodes);
  const handshake = addTimes(parts, (p) => p.handshakeHistogramEncoded, (p) => p.handshakeMs);
  const fanout = addTimes(parts, (p) => p.fanoutHistogramEncoded, (p) => p.fanoutMs);
  const sums = Object.fromEntries(COUNTERS.map((k) => [k, parts.reduce((total, p) => total + p[k], 0)]));
  return {
    ...sums as Record<typeof COUNTERS[number], number>,
    // A part may lack it: its `handshakes` are then the measured run's only.
    ...(parts.some((p) => p.preConnectedHandshakes !== undefined)
      ? { preConnectedHandshakes: parts.reduce((total, p) => total + (p.preConnectedHandshakes ?? 0), 0) }
      : {}),
    ...(parts.some((p) => p.deflateOffered !== undefined)
      ? {
        deflateOffered: parts.reduce((total, p) => total + (p.deflateOffered ?? 0), 0),
        deflateAgreed: parts.reduce((total, p) => total + (p.deflateAgreed ?? 0), 0),
      }
      : {}),
    handshakeMs: handshake.summary,
    ...defined({ handshakeHistogramEncoded: handshake.encoded }),
    fanoutMs: fanout.summary,
    ...defined({ fanoutHistogramEncoded: fanout.encoded }),
    closeCodes,
  };
}

const WS_INTERVAL_KEYS = ["handshakes", "messagesSent", "messagesReceived"] as const;

/** A WebSocket run's counts of one interval that metrics outputs stream (results/export/export_point.ts). */
export type WsIntervalCounts = Record<typeof WS_INTERVAL_KEYS[number], number>;

/** Adds `from` into `into` (an interval's workers, or a series' running totals). */
export function addWsIntervalCounts(into: WsIntervalCounts, from: WsIntervalCounts): void {
  for (const key of WS_INTERVAL_KEYS) into[key] += from[key];
}

export function emptyWsIntervalCounts(): WsIntervalCounts {
  return { handshakes: 0, messagesSent: 0, messagesReceived: 0 };
}
