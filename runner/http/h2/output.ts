/**
 * @module
 * The output side of an HTTP/2 connection: frames written in place into one buffer and sent once per batch.
 * MEMORY: starts small, doubles for a burst, halves after a run of small writes.
 */
import type { InlineConn } from "../transport/transport.ts";

/** Output grows up to this; a peer that stops reading while we owe it more is dropped. */
export const MAX_OUT_BYTES = 8 * 1024 * 1024;
/** The buffer's first size: a preface (70 octets) and a request's frames (a GET's HEADERS is 40-100). */
const OUT_FIRST_BYTES = 256;
/** Writes in a row that used under a quarter of the buffer before it halves (no churn under steady use). */
const SHRINK_AFTER_WRITES = 32;

export interface H2OutputOwner {
  socket(): InlineConn | null;
  writeFailed(err: unknown): void;
  overflowed(): void;
}

export class H2Output {
  /** The buffer; read it only after `reserve` (which may replace it). */
  bytes = new Uint8Array(OUT_FIRST_BYTES);
  #start = 0;
  #end = 0;
  /** The most bytes queued since the buffer last ran empty, and the small uses in a row since it grew. */
  #peak = 0;
  #smallRuns = 0;
  #writing = false;
  #flushQueued = false;
  /** True while a read's frames are handled: `wrote` leaves the write to the end of the batch. */
  inBatch = false;
  readonly #flushNow = () => this.flush();
  readonly #onWritten = (n: number) => {
    if (!this.#writing) return; // a write of a socket closed since (reset)
    this.#writing = false;
    this.#advance(n);
    this.flush();
  };
  readonly #onWriteError = (err: unknown) => {
    if (!this.#writing) return;
    this.#writing = false;
    this.owner.writeFailed(err);
  };

  constructor(readonly owner: H2OutputOwner) {}

  reset(): void {
    this.#start = this.#end = 0;
    this.#peak = this.#smallRuns = 0;
    this.#writing = false;
    if (this.bytes.length > OUT_FIRST_BYTES) this.bytes = new Uint8Array(OUT_FIRST_BYTES);
  }

  /** Room for `bytes` more; returns the offset to write them at (then `wrote(end)`). */
  reserve(bytes: number): number {
    if (this.#end + bytes <= this.bytes.length) return this.#end;
    if (!this.#writing && this.#start > 0) {
      this.bytes.copyWithin(0, this.#start, this.#end);
      this.#end -= this.#start;
      this.#start = 0;
    }
    if (this.#end + bytes > this.bytes.length) {
      const grown = new Uint8Array(Math.max(2 * this.bytes.length, this.#end - this.#start + bytes));
      grown.set(this.bytes.subarray(this.#start, this.#end));
      this.#end -= this.#start;
      this.#start = 0;
      this.bytes = grown;
    }
    return this.#end;
  }

  /** Marks `bytes[.., end)` queued: written at the end of the batch, or in this turn's microtasks. */
  wrote(end: number): void {
    this.#end = end;
    if (end > this.#peak) this.#peak = end;
    if (this.#end - this.#start > MAX_OUT_BYTES) {
      this.owner.overflowed();
      return;
    }
    if (!this.inBatch && !this.#flushQueued) {
      this.#flushQueued = true;
      queueMicrotask(this.#flushNow);
    }
  }

  /** Writes what is queued: what the kernel takes now, the rest when the socket drains. */
  flush(): void {
    this.#flushQueued = false;
    const sock = this.owner.socket();
    if (this.#writing || sock === null || this.#end === this.#start) return;
    let n: number;
    try {
      n = sock.writeNow(this.bytes.subarray(this.#start, this.#end));
    } catch (err) {
      this.owner.writeFailed(err);
      return;
    }
    this.#advance(n);
    if (this.#end === this.#start) return;
    this.#writing = true;
    sock.write(this.bytes.subarray(this.#start, this.#end)).then(this.#onWritten, this.#onWriteError);
  }

  #advance(n: number): void {
    this.#start += n;
    if (this.#start !== this.#end) return;
    this.#start = this.#end = 0;
    if (this.bytes.length > OUT_FIRST_BYTES) this.#maybeShrink();
    this.#peak = 0;
  }

  /** Empty again: after SHRINK_AFTER_WRITES small uses in a row, the buffer halves (never while writing). */
  #maybeShrink(): void {
    if (4 * this.#peak > this.bytes.length) {
      this.#smallRuns = 0;
      return;
    }
    if (++this.#smallRuns < SHRINK_AFTER_WRITES || this.#writing) return;
    this.#smallRuns = 0;
    this.bytes = new Uint8Array(Math.max(OUT_FIRST_BYTES, this.bytes.length >> 1));
  }
}
