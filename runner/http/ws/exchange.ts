/**
 * @module
 * The record of one WebSocket connection's exchange and its recorder side. HOT PATH: nothing allocated.
 */
import type { IntervalRecorder } from "../../stats/recorder.ts";
import { elapsedUs } from "../../../results/histogram.ts";

export class WsExchange {
  active = false;
  /** It is over (answered, failed, or its close handshake done); the connection's `consume` says so. */
  over = false;
  intendedMs = 0;
  sentMs = 0;
  /** A message (or ping) sent and not answered: counted in the recorder's `inFlight`. */
  #outstanding = false;
  #answered = 0;
  /** What `carry` handed over, taken by the next exchange's first send. */
  #carried = 0;

  constructor(readonly recorder: IntervalRecorder) {}

  /** A send of `bytes` at `sentMs`, meant for `intendedMs` (< 0: the same); a new exchange unless active. */
  sent(intendedMs: number, sentMs: number, bytes: number): void {
    this.intendedMs = intendedMs < 0 ? sentMs : intendedMs;
    this.sentMs = sentMs;
    if (!this.active) {
      this.#answered = this.#carried;
      this.#carried = 0;
    }
    this.active = true;
    this.over = false;
    this.recorder.addBytesWritten(sentMs, bytes);
    this.recorder.inFlight++;
    this.#outstanding = true;
  }

  /** The send answered at `nowMs`: its round trip from `fromMs` (and from the actual send) recorded. */
  answered(nowMs: number, fromMs: number): void {
    this.recorder.recordMessage(nowMs, elapsedUs(fromMs, nowMs), elapsedUs(this.sentMs, nowMs));
    this.recorder.inFlight--;
    this.#outstanding = false;
    this.#answered++;
  }

  /** The answers a chain counted so far, carried into its next exchange. */
  carry(answered: number): void {
    this.#carried = answered;
  }

  end(): number {
    this.active = false;
    if (this.#outstanding) {
      this.#outstanding = false;
      this.recorder.inFlight--;
    }
    this.over = true;
    // A chain that ends between its exchanges (hold's wait) still has its count carried.
    const answered = this.#answered + this.#carried;
    this.#answered = this.#carried = 0;
    return answered;
  }

  /** At the run's end: a send still unanswered is over, counted unfinished unless the run is stopping. */
  countUnfinished(nowMs: number, stopping: boolean): void {
    if (!this.#outstanding || !this.active || this.over) return;
    if (!stopping) this.recorder.unfinished(nowMs, 1);
    this.over = true;
  }
}
