/**
 * @module
 * The bytes one io_uring socket received that its reader has not taken, as (buffer id, offset, end) chunks.
 * A base class of the socket, so a socket's state is one object. HOT PATH: nothing allocated.
 */
import { RECV_BUFFER_BYTES } from "./ffi.ts";
import type { UringBuffers } from "./buffers.ts";
import { SendSlot } from "./send.ts";
import type { LoopSocket } from "../loop_socket.ts";
import type { SocketLoop } from "../socket_table.ts";

export abstract class HeldChunks extends SendSlot {
  /** The first chunk: its buffer id, the offset of its next byte, its end. */
  #bid = 0;
  #from = 0;
  #end = 0;
  /** The chunks behind it, a ring of triples (null until a socket first holds two). */
  #rest: Int32Array | null = null;
  #restFirst = 0;
  /** Chunks held and their bytes not yet taken (bounded by HELD_MAX_BYTES plus a round). */
  heldCount = 0;
  heldBytes = 0;

  constructor(loop: SocketLoop<LoopSocket>, fd: number, token: number, readonly buffers: UringBuffers) {
    super(loop, fd, token, buffers);
  }

  hold(bid: number, length: number): void {
    if (this.heldCount === 0) {
      this.#bid = bid;
      this.#from = 0;
      this.#end = length;
    } else this.#push(bid, length);
    this.heldCount++;
    this.heldBytes += length;
  }

  #push(bid: number, length: number): void {
    const queued = this.heldCount - 1;
    if (this.#rest === null || queued * 3 === this.#rest.length) this.#grow(queued);
    const rest = this.#rest!;
    const at = ((this.#restFirst + queued) % (rest.length / 3)) * 3;
    rest[at] = bid;
    rest[at + 1] = 0;
    rest[at + 2] = length;
  }

  #grow(queued: number): void {
    const old = this.#rest;
    const next = new Int32Array(old === null ? 3 * 16 : old.length * 2);
    if (old !== null) {
      const size = old.length / 3;
      for (let k = 0; k < queued; k++) {
        const at = ((this.#restFirst + k) % size) * 3;
        next.set(old.subarray(at, at + 3), k * 3);
      }
    }
    this.#rest = next;
    this.#restFirst = 0;
  }

  /** Copies up to `buf.length` bytes of the first chunk into `buf`; an emptied chunk goes back. */
  takeHeld(buf: Uint8Array): number {
    const from = this.#from;
    const end = this.#end;
    const n = Math.min(end - from, buf.length);
    const base = this.#bid * RECV_BUFFER_BYTES + from;
    const src = this.buffers.recvBytes;
    // A few bytes (a small message) by hand: a subarray would be an object per message.
    if (n <= 64) { for (let i = 0; i < n; i++) buf[i] = src[base + i]; }
    else buf.set(src.subarray(base, base + n));
    this.heldBytes -= n;
    if (from + n < end) this.#from = from + n;
    else this.#drop();
    return n;
  }

  /** Hands the first chunk back; the next queued one (if any) becomes the first. */
  #drop(): void {
    this.buffers.returnBuffer(this.#bid);
    if (--this.heldCount === 0) return;
    const rest = this.#rest!;
    const at = this.#restFirst * 3;
    this.#bid = rest[at];
    this.#from = rest[at + 1];
    this.#end = rest[at + 2];
    this.#restFirst = (this.#restFirst + 1) % (rest.length / 3);
  }

  clearHeld(): void {
    while (this.heldCount > 0) this.#drop();
    this.heldBytes = 0;
  }
}
