/**
 * @module
 * The `ws` section of a WebSocket run in `results.json`.
 */
import { z } from "zod";
import { count, counts, histogramEncoding, latencySummarySchema } from "./values.ts";

export const wsResultSchema = z.looseObject({
  /** Handshakes completed by the run's connections, pre-connected ones included. */
  handshakes: count,
  /** Of `handshakes`, those completed before the measured run: the pre-connected pool's (and a warm-up's). */
  preConnectedHandshakes: count.optional(),
  /** Of `handshakes`, those that offered permessage-deflate and those that got it. */
  deflateOffered: count.optional(),
  deflateAgreed: count.optional(),
  /** Time from the Upgrade request written to its 101 read (ms), measured run only; null without one. */
  handshakeMs: latencySummarySchema.nullable(),
  /** The handshake times' HDR histogram, base64: shards add it (results/ws_totals.ts). Absent: none. */
  handshakeHistogramEncoded: histogramEncoding.optional(),
  messagesSent: count,
  messagesReceived: count,
  /** Payload bytes (frame headers and masks not included; the run's bytes count those). */
  payloadBytesSent: count,
  payloadBytesReceived: count,
  /** Server messages that answered no send: broadcasts, or answers past the match rule. */
  unsolicited: count,
  /** Receive time minus the send time the target wrote into an unsolicited message (ms); null: none did. */
  fanoutMs: latencySummarySchema.nullable(),
  /** The fan-out latencies' HDR histogram, base64, added like the handshakes'. Absent: none. */
  fanoutHistogramEncoded: histogramEncoding.optional(),
  pingsSent: count,
  pongsReceived: count,
  /** Close frames sent (a storm connection's end, a fault, the run's end) and the server's close codes. */
  closesSent: count,
  closeCodes: counts,
});

export type WsResult = z.infer<typeof wsResultSchema>;
