/**
 * @module
 * What a worker counts of its WebSocket connections beyond the recorder. HOT PATH: plain fields and reused
 * histograms. Events before `originMs` are not counted, except handshakes (also in `preConnectedHandshakes`).
 */
import { clampUs, createHistogram, encodeHistogram, type Histogram } from "../../../results/histogram.ts";
import type { WsParts } from "../../../results/ws_totals.ts";

/** Close codes fit 0..4999 (application codes up to 4999); anything else counts at 0. */
const CLOSE_CODE_SLOTS = 5000;

export class WsStats {
  originMs = Infinity;
  /** Every handshake completed, those before the measured run included. */
  handshakes = 0;
  /** Handshakes completed before it: the pre-connected pool's (and a warm-up's). */
  preConnectedHandshakes = 0;
  /** Of every handshake, those that offered permessage-deflate, and those the server agreed it on. */
  deflateOffered = 0;
  deflateAgreed = 0;
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

  counts(nowMs: number): boolean {
    return nowMs >= this.originMs;
  }

  /** A message of `payloadBytes` sent at `nowMs`, counted when it belongs to the measured run. */
  sent(nowMs: number, payloadBytes: number): void {
    if (nowMs < this.originMs) return;
    this.messagesSent++;
    this.payloadBytesSent += payloadBytes;
  }

  /** A message of `payloadBytes` received at `nowMs`; whether it belongs to the measured run (counted). */
  received(nowMs: number, payloadBytes: number): boolean {
    if (nowMs < this.originMs) return false;
    this.messagesReceived++;
    this.payloadBytesReceived += payloadBytes;
    return true;
  }

  /** A handshake completed at `nowMs`; `offered`/`agreed`: permessage-deflate asked for, and agreed. */
  handshake(nowMs: number, latencyUs: number, offered: boolean, agreed: boolean): void {
    this.handshakes++;
    if (offered) this.deflateOffered++;
    if (agreed) this.deflateAgreed++;
    if (nowMs < this.originMs) {
      this.preConnectedHandshakes++;
      return;
    }
    this.#handshake.recordValue(clampUs(latencyUs));
  }

  fanout(latencyUs: number): void {
    this.#fanout.recordValue(clampUs(latencyUs));
  }

  closeCode(nowMs: number, code: number): void {
    if (nowMs >= this.originMs) this.#closeCodes[code >= 0 && code < CLOSE_CODE_SLOTS ? code : 0]++;
  }

  take(): WsParts {
    const closeCodes: Record<string, number> = {};
    this.#closeCodes.forEach((n, code) => {
      if (n !== 0) closeCodes[String(code)] = n;
    });
    const encoded = (h: Histogram) => h.totalCount === 0 ? undefined : encodeHistogram(h);
    const { originMs: _originMs, deflateOffered, deflateAgreed, ...counts } = this;
    return {
      ...counts,
      ...(deflateOffered > 0 ? { deflateOffered, deflateAgreed } : {}),
      handshakeHistogramEncoded: encoded(this.#handshake),
      fanoutHistogramEncoded: encoded(this.#fanout),
      closeCodes,
    };
  }
}
