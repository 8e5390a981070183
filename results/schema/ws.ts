/**
 * @module
 * The `ws` section of a WebSocket run in `results.json`: handshakes and their time (apart from the TCP
 * connect and TLS, which stay in `connectTimeMs`/`tlsMs`), messages and payload bytes each way, server
 * messages that answered no send (broadcasts) and their fan-out latency when they carried the target's
 * send time, pings and pongs, and the close codes the server closed with (1006: closed without a close
 * frame). The two timings keep their encoded histograms so shards and workers add exactly. Round trips of
 * answered messages are the run's own latency (`latency`, `requests`).
 */
import { z } from "zod";
import { count, counts, histogramEncoding, latencySummarySchema } from "./values.ts";

export const wsResultSchema = z.looseObject({
  /**
   * Handshakes completed (101 checked) by the run's connections, the pre-connected ones' included (so with
   * every connection closed cleanly it equals the closes). Files from before `preConnectedHandshakes`
   * counted only the measured run's.
   */
  handshakes: count,
  /** Of `handshakes`, those completed before the measured run: the pre-connected pool's (and a warm-up's). */
  preConnectedHandshakes: count.optional(),
  /**
   * Of `handshakes`, those that offered permessage-deflate (`--ws-deflate`) and those the server agreed it
   * on; the others ran uncompressed. Absent when none offered it.
   */
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
  /**
   * Receive time minus the send time the target wrote into an unsolicited message (ms); null: none carried
   * one.
   */
  fanoutMs: latencySummarySchema.nullable(),
  /** The fan-out latencies' HDR histogram, base64, added like the handshakes'. Absent: none. */
  fanoutHistogramEncoded: histogramEncoding.optional(),
  pingsSent: count,
  pongsReceived: count,
  /**
   * Close frames we sent (end of a storm connection, a fault, the run's end) and the server's close codes.
   */
  closesSent: count,
  closeCodes: counts,
});

export type WsResult = z.infer<typeof wsResultSchema>;
