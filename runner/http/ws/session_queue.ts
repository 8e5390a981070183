/**
 * @module
 * The messages a flow session's WebSocket received before a step asked: in arrival order, bounded in bytes
 * and count (a flood of empty ones would queue millions), oldest let go first. A step takes the first its
 * rule accepts; those passed over or let go count as unsolicited.
 */

/** A message received: its text (a binary one decoded as UTF-8) and when it arrived. */
export interface ReceivedMessage {
  text: string;
  atMs: number;
}

/** Most bytes, and most messages, kept for later steps; past either the oldest are let go. */
const QUEUE_BYTES = 4 * 1024 * 1024;
const QUEUE_MESSAGES = 1_024;

export class SessionQueue {
  readonly #messages: ReceivedMessage[] = [];
  #bytes = 0;

  /** `passed` is told of each message no step took (its arrival time). */
  constructor(readonly passed: (atMs: number) => void) {}

  /** Keeps `message` for a later step, letting the oldest go past the bounds. */
  push(message: ReceivedMessage): void {
    const messages = this.#messages;
    messages.push(message);
    this.#bytes += message.text.length;
    while ((this.#bytes > QUEUE_BYTES && messages.length > 1) || messages.length > QUEUE_MESSAGES) {
      this.#passOver(messages.shift()!);
    }
  }

  /** The first message kept that `accepts` takes, those before it passed over; null when none does. */
  take(accepts: (message: ReceivedMessage) => boolean): ReceivedMessage | null {
    while (this.#messages.length > 0) {
      const message = this.#messages.shift()!;
      this.#bytes -= message.text.length;
      if (accepts(message)) return message;
      this.passed(message.atMs);
    }
    return null;
  }

  /** The session is over: what is still kept was never asked for. */
  clear(): void {
    for (const m of this.#messages) this.passed(m.atMs);
    this.#messages.length = 0;
    this.#bytes = 0;
  }

  #passOver(message: ReceivedMessage): void {
    this.#bytes -= message.text.length;
    this.passed(message.atMs);
  }
}
