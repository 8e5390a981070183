/**
 * @module
 * The recorder's counts taken out as an interval closes (statuses, failures, ws counts); never per response.
 */
import {
  addWsIntervalCounts,
  emptyWsIntervalCounts,
  type WsIntervalCounts,
} from "../../results/ws_totals.ts";
import { ERROR_KINDS, type IntervalSample } from "./sample.ts";
import { OTHER_MESSAGES, statusKey } from "../../results/schema/keys.ts";

/** The nonzero counts of `counts` (index = status slot) by status key, and the counts zeroed for reuse. */
export function takeStatusCodes(counts: Uint32Array): Record<string, number> {
  const out: Record<string, number> = {};
  for (let slot = 0; slot < counts.length; slot++) {
    if (counts[slot] !== 0) out[statusKey(slot)] = counts[slot];
  }
  counts.fill(0);
  return out;
}

/** Failures of the open interval by kind (the index in `ERROR_KINDS`), with their messages. */
export class ErrorTally {
  readonly #counts = new Uint32Array(ERROR_KINDS.length);
  readonly #messages: Map<string, number>[] = ERROR_KINDS.map(() => new Map());
  /** The characters of each kind's kept messages. */
  readonly #chars = new Float64Array(ERROR_KINDS.length);

  constructor(readonly maxMessageChars: number) {}

  /** One failure of kind index `k`; its message kept while the kind's kept text is under the bound. */
  record(k: number, message: string): void {
    this.#counts[k]++;
    this.note(k, message);
  }

  /** The message of an answer counted under its status (a gRPC status), not as a failure of kind `k`. */
  note(k: number, message: string): void {
    const messages = this.#messages[k];
    const seen = messages.get(message);
    if (seen !== undefined) messages.set(message, seen + 1);
    else if (this.#chars[k] + message.length <= this.maxMessageChars) {
      messages.set(message, 1);
      this.#chars[k] += message.length;
    } else messages.set(OTHER_MESSAGES, (messages.get(OTHER_MESSAGES) ?? 0) + 1);
  }

  /** Moves the counts and messages into `sample` (empty kinds stay absent), then zeroes. */
  takeInto(sample: IntervalSample): void {
    for (let k = 0; k < ERROR_KINDS.length; k++) {
      if (this.#counts[k] !== 0) sample.errors[ERROR_KINDS[k]] = this.#counts[k];
      if (this.#messages[k].size === 0) continue;
      sample.errorMessages[ERROR_KINDS[k]] = Object.fromEntries(this.#messages[k]);
      this.#messages[k].clear();
    }
    this.#counts.fill(0);
    this.#chars.fill(0);
  }
}

/** A WebSocket run's live counts (runner/http/ws/stats.ts) and what earlier samples carried of them. */
export class WsSampler {
  readonly #sampled = emptyWsIntervalCounts();

  constructor(readonly live: Readonly<WsIntervalCounts>) {}

  changed(): boolean {
    const { live } = this;
    const sampled = this.#sampled;
    return live.handshakes !== sampled.handshakes || live.messagesSent !== sampled.messagesSent ||
      live.messagesReceived !== sampled.messagesReceived;
  }

  /** What the counts grew by since the previous sample. */
  take(): WsIntervalCounts {
    const { live } = this;
    const sampled = this.#sampled;
    const grown = {
      handshakes: live.handshakes - sampled.handshakes,
      messagesSent: live.messagesSent - sampled.messagesSent,
      messagesReceived: live.messagesReceived - sampled.messagesReceived,
    };
    addWsIntervalCounts(sampled, grown);
    return grown;
  }
}
