/**
 * @module
 * The bytes one io_uring socket (transport/uring_socket.ts) has received and its reader has not taken
 * yet: a queue of provided buffers, each a (buffer id, offset, end) triple in a typed array, copied
 * into the reader's own buffer on demand and handed back to the kernel once emptied. HOT PATH: `hold`
 * and `take` allocate nothing (a queue that fills grows once, by doubling; its length is bounded by the
 * socket's cancel of its receive, transport/uring_socket.ts).
 */
import { RECV_BUFFER_BYTES } from "./uring_ffi.ts";
import type { UringBuffers } from "./uring_buffers.ts";

export class HeldChunks {
  #chunks = new Int32Array(3 * 16);
  #first = 0;
  /** Chunks held, and their bytes not yet taken. */
  count = 0;
  bytes = 0;

  constructor(readonly buffers: UringBuffers) {}

  /** Receive buffer `bid` came with `length` bytes. */
  hold(bid: number, length: number): void {
    if (this.count * 3 === this.#chunks.length) this.#grow();
    const at = ((this.#first + this.count) % (this.#chunks.length / 3)) * 3;
    this.#chunks[at] = bid;
    this.#chunks[at + 1] = 0;
    this.#chunks[at + 2] = length;
    this.count++;
    this.bytes += length;
  }

  #grow(): void {
    const size = this.#chunks.length / 3;
    const next = new Int32Array(this.#chunks.length * 2);
    for (let k = 0; k < this.count; k++) {
      const at = ((this.#first + k) % size) * 3;
      next.set(this.#chunks.subarray(at, at + 3), k * 3);
    }
    this.#chunks = next;
    this.#first = 0;
  }

  /**
   * Copies up to `buf.length` bytes of the first chunk into `buf`: the bytes copied. A chunk emptied
   * goes back to the kernel.
   */
  take(buf: Uint8Array): number {
    const at = this.#first * 3;
    const bid = this.#chunks[at];
    const from = this.#chunks[at + 1];
    const end = this.#chunks[at + 2];
    const n = Math.min(end - from, buf.length);
    const base = bid * RECV_BUFFER_BYTES + from;
    const src = this.buffers.recvBytes;
    // A few bytes (a small message) by hand: a subarray would be an object per message.
    if (n <= 64) { for (let i = 0; i < n; i++) buf[i] = src[base + i]; }
    else buf.set(src.subarray(base, base + n));
    this.bytes -= n;
    if (from + n < end) this.#chunks[at + 1] = from + n;
    else this.#drop();
    return n;
  }

  #drop(): void {
    this.buffers.returnBuffer(this.#chunks[this.#first * 3]);
    this.#first = (this.#first + 1) % (this.#chunks.length / 3);
    this.count--;
  }

  /** Hands every chunk back (the socket closed). */
  clear(): void {
    while (this.count > 0) this.#drop();
    this.bytes = 0;
  }
}
