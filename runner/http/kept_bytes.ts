/**
 * @module
 * The raw bytes of one HTTP/1.1 response (or an HTTP/2 body) kept for a flow step that captures, checks or
 * keeps cookies, in one reused buffer per connection, capped at `limitBytes` (then `body-too-large`).
 */
import { isInterim } from "../../http1/body_framing.ts";
import { MessageFramer } from "../../http1/message_framer.ts";

/** The most bytes a step keeps of a response unless it sets `maxKeptBytes`. */
export const DEFAULT_KEPT_BYTES = 1024 * 1024;

export function keptTooLargeMessage(limitBytes: number): string {
  return `the response passed the ${limitBytes} bytes its step keeps for captures and checks (maxKeptBytes)`;
}

/** What every KeptBytes holds until its first append: one empty buffer, not one per connection. */
const NOTHING = new Uint8Array(0);
/** The first buffer's size, doubled as needed; a checking connection keeps its buffer between responses. */
const FIRST_KEPT_BYTES = 512;
/** Runs up to this long are copied in a loop rather than through a view (see `append`). */
const COPY_LOOP_BYTES = 48;
/** The last longer run's view of its read buffer: a run at the same place (like responses) reuses it. */
let runView: Uint8Array = NOTHING, runOf: Uint8Array = NOTHING, runFrom = 0;

export class KeptBytes {
  #bytes = NOTHING;
  #length = 0;
  limitBytes = DEFAULT_KEPT_BYTES;
  /** Head only: the final head was kept, later bytes are not. */
  #headKept = false;
  /** Head only: http1/'s framer finds each head's end as the parser did; made on first use. */
  #heads: MessageFramer | null = null;

  /** Forgets the last response: the next append starts a new one, kept up to `limitBytes`. */
  reset(limitBytes = DEFAULT_KEPT_BYTES): void {
    this.#length = 0;
    this.#headKept = false;
    this.#heads?.start();
    this.limitBytes = limitBytes;
  }

  view(): Uint8Array {
    return this.#bytes.subarray(0, this.#length);
  }

  get length(): number {
    return this.#length;
  }

  /** Copies the bytes kept into `into` at `at`; a buffer of 1 KiB at most whole, over `into` past them. */
  copyInto(into: Uint8Array, at: number): void {
    const bytes = this.#bytes;
    // One `set` of a small buffer costs less than a view of its bytes to copy from.
    if (bytes.length <= 1024 && at + bytes.length <= into.length) into.set(bytes, at);
    else into.set(bytes.subarray(0, this.#length), at);
  }

  /** Appends `buf[from, to)` (with `headOnly`, up to the head's end); false when past `limitBytes`. */
  append(buf: Uint8Array, from: number, to: number, headOnly: boolean): boolean {
    if (headOnly && this.#headKept) return true;
    const at = this.#length;
    const need = at + to - from;
    if (need > this.limitBytes) return false;
    if (this.#bytes.length < need) {
      const grown = new Uint8Array(Math.max(need, 2 * this.#bytes.length, FIRST_KEPT_BYTES));
      grown.set(this.#bytes.subarray(0, at));
      this.#bytes = grown;
    }
    const bytes = this.#bytes;
    // A short run byte by byte (a view to copy from costs as much as ~50 bytes copied so).
    if (to - from <= COPY_LOOP_BYTES) { for (let k = from, j = at; k < to; k++, j++) bytes[j] = buf[k]; }
    else {
      if (runOf !== buf || runFrom !== from || runView.length !== to - from) {
        runOf = buf, runFrom = from, runView = buf.subarray(from, to);
      }
      bytes.set(runView, at);
    }
    this.#length = need;
    if (headOnly) this.#headKept = this.#finalHeadIn(at, need);
    return true;
  }

  /** Whether the final head ended in the kept bytes [from, to) (fed to the framer once each). */
  #finalHeadIn(from: number, to: number): boolean {
    if (this.#heads === null) {
      this.#heads = new MessageFramer({ maxHeadBytes: Number.MAX_SAFE_INTEGER, stopAtHeads: true });
      this.#heads.start();
    }
    const heads = this.#heads;
    while (from < to) {
      const end = heads.feed(this.#bytes, from, to);
      if (end < 0) return false; // the head goes on in the next read
      // An interim 1xx head: the final head follows it; keep on to its end.
      if (!isInterim(heads.status)) return true;
      from = end;
    }
    return false;
  }
}
