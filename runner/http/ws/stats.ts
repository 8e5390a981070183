/**
 * @module
 * What a worker counts of its WebSocket connections beyond what the recorder keeps (round trips,
 * errors by kind, bytes on the wire, connects): handshakes and their time, messages and payload bytes
 * each way, unsolicited server messages and their fan-out latency, pings, pongs and close codes. HOT
 * PATH: plain number fields and reused histograms; a close code counts into a `Uint32Array` by code.
 * Events before t0 (`originMs`) are the warm-up's and not counted. One `WsSample` per worker crosses to
 * the main isolate at the run's end; `mergeWsSamples` adds a pool's into the results' `ws` section.
 */
import {
  clampUs,
  createHistogram,
  encodeHistogram,
  type Histogram,
  mergeEncoded,
  summarizeMs,
} from "../../../results/histogram.ts";
import type { WsResult } from "../../../results/schema_ws.ts";

/** One worker's WebSocket counts: plain data that crosses isolates. */
export interface WsSample {
  handshakes: number;
  handshakeHistogram: string | null;
  messagesSent: number;
  messagesReceived: number;
  payloadBytesSent: number;
  payloadBytesReceived: number;
  unsolicited: number;
  fanoutHistogram: string | null;
  pingsSent: number;
  pongsReceived: number;
  closesSent: number;
  closeCodes: Record<string, number>;
}

/** Close codes fit 0..4999 (application codes up to 4999); anything else counts at 0. */
const CLOSE_CODE_SLOTS = 5000;

export class WsStats {
  originMs = Infinity;
  handshakes = 0;
  messagesSent = 0;
  messagesReceived = 0;
  payloadBytesSent = 0;
  payloadBytesReceived = 0;
  unsolicited = 0;
  pingsSent = 0;
  pongsReceived = 0;
  closesSent = 0;
  readonly #closeCodes = new Uint32Array(CLOSE_CODE_SLOTS);
  readonly #handshake: Histogram = createHistogram();
  readonly #fanout: Histogram = createHistogram();

  /** Whether an event at `nowMs` belongs to the measured run. */
  counts(nowMs: number): boolean {
    return nowMs >= this.originMs;
  }

  handshake(nowMs: number, latencyUs: number): void {
    if (nowMs < this.originMs) return;
    this.handshakes++;
    this.#handshake.recordValue(clampUs(latencyUs));
  }

  fanout(latencyUs: number): void {
    this.#fanout.recordValue(clampUs(latencyUs));
  }

  closeCode(nowMs: number, code: number): void {
    if (nowMs >= this.originMs) this.#closeCodes[code >= 0 && code < CLOSE_CODE_SLOTS ? code : 0]++;
  }

  /** The worker's totals (once, at the run's end). */
  take(): WsSample {
    const closeCodes: Record<string, number> = {};
    this.#closeCodes.forEach((n, code) => {
      if (n !== 0) closeCodes[String(code)] = n;
    });
    const encoded = (h: Histogram) => h.totalCount === 0 ? null : encodeHistogram(h);
    return {
      handshakes: this.handshakes,
      handshakeHistogram: encoded(this.#handshake),
      messagesSent: this.messagesSent,
      messagesReceived: this.messagesReceived,
      payloadBytesSent: this.payloadBytesSent,
      payloadBytesReceived: this.payloadBytesReceived,
      unsolicited: this.unsolicited,
      fanoutHistogram: encoded(this.#fanout),
      pingsSent: this.pingsSent,
      pongsReceived: this.pongsReceived,
      closesSent: this.closesSent,
      closeCodes,
    };
  }
}

/** A pool's samples (1 or N workers, one path) as the results' `ws` section. */
export function mergeWsSamples(samples: readonly WsSample[]): WsResult {
  const sum = (key: keyof WsSample) => samples.reduce((a, s) => a + (s[key] as number), 0);
  const summary = (encodings: Array<string | null>) => {
    const present = encodings.filter((e): e is string => e !== null);
    return present.length === 0 ? null : summarizeMs(mergeEncoded(present));
  };
  const closeCodes: Record<string, number> = {};
  for (const s of samples) {
    for (const [code, n] of Object.entries(s.closeCodes)) closeCodes[code] = (closeCodes[code] ?? 0) + n;
  }
  return {
    handshakes: sum("handshakes"),
    handshakeMs: summary(samples.map((s) => s.handshakeHistogram)),
    messagesSent: sum("messagesSent"),
    messagesReceived: sum("messagesReceived"),
    payloadBytesSent: sum("payloadBytesSent"),
    payloadBytesReceived: sum("payloadBytesReceived"),
    unsolicited: sum("unsolicited"),
    fanoutMs: summary(samples.map((s) => s.fanoutHistogram)),
    pingsSent: sum("pingsSent"),
    pongsReceived: sum("pongsReceived"),
    closesSent: sum("closesSent"),
    closeCodes,
  };
}
