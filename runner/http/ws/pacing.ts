/**
 * @module
 * What one WebSocket connection sends next, and when. HOT PATH: `nextFrame` masks a prebuilt frame.
 */
import { type MessageTemplate, pingFrame } from "../../../ws/frame_encoder.ts";
import type { WsRun } from "./run.ts";
import type { Sleeper } from "../../../system/sleep_queue.ts";

const EMPTY = new Uint8Array(0);

export class WsPacing implements Sleeper {
  #messageIndex = 0;
  /** The run's messages as this socket sends them (compressed when it agreed to permessage-deflate). */
  #messages: readonly MessageTemplate[];
  #stormSent = 0;
  /** The number of the last wait queued: an older one's entry, left when it ended early, wakes nothing. */
  #pauseNo = 0;
  #then: (() => void) | null = null;

  constructor(readonly run: WsRun) {
    this.#messages = run.messages;
  }

  /** A new socket, its handshake done (`deflate`: permessage-deflate agreed): its storm starts over. */
  reset(deflate: boolean): void {
    this.#stormSent = 0;
    this.#messages = deflate ? this.run.deflatedMessages : this.run.messages;
  }

  /** The next frame to send at `sentMs`: hold's ping, or the next message masked. */
  nextFrame(sentMs: number): Uint8Array {
    const run = this.run;
    const stats = run.stats;
    if (run.pingIntervalMs > 0) {
      if (stats.counts(sentMs)) stats.pingsSent++;
      return pingFrame(EMPTY, run.keys);
    }
    const messages = this.#messages;
    const template = messages[this.#messageIndex];
    if (++this.#messageIndex === messages.length) this.#messageIndex = 0;
    stats.sent(sentMs, template.payloadBytes);
    return template.mask(run.keys);
  }

  /** A storm's message was answered: the think time before the next, or -1 when it closes. */
  stormNext(stopping: boolean): number {
    if (++this.#stormSent < this.run.messagesPerConnection && !stopping) {
      return this.run.thinkAfterMs[this.#stormSent - 1] ?? 0;
    }
    return -1;
  }

  /** Waits `ms`, then `then`; `endPause` ends the wait early, calling `then` at once. */
  pause(ms: number, then: () => void): void {
    this.#then = then;
    this.run.pauses.add(this, ++this.#pauseNo, performance.now() + ms);
  }

  wake(pause: number): boolean {
    const then = this.#then;
    if (pause !== this.#pauseNo || then === null) return false;
    this.#then = null;
    then();
    return true;
  }

  endPause(): void {
    const then = this.#then;
    if (then === null) return;
    this.#then = null;
    this.run.pauses.forget();
    then();
  }
}
