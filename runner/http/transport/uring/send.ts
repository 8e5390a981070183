/**
 * @module
 * One io_uring socket's send slot: memory the kernel reads a send from after the call returned. One send is
 * in flight at a time (two could be issued out of order). A base class of the socket: one object a message.
 */
import { SEND_SLOT_BYTES, SMALL_SEND_SLOT_BYTES } from "./ffi.ts";
import type { UringBuffers } from "./buffers.ts";
import { LoopSocket } from "../loop_socket.ts";
import type { SocketLoop } from "../socket_table.ts";

export abstract class SendSlot extends LoopSocket {
  readonly #buffers: UringBuffers;
  /** The slot's size: small until a write does not fit in it (ffi.ts `SMALL_SEND_SLOT_BYTES`). */
  #capacity = SMALL_SEND_SLOT_BYTES;
  /** The view of the slot's chunk (shared with its other slots), and where the slot starts in it. */
  #chunk!: Uint8Array;
  #at = 0;
  /** The slot's address, split into its low and high words once. */
  #lo = 0;
  #hi = 0;
  // [#start, #end) waits or is in flight; [#start, #inflightEnd) is in flight.
  #start = 0;
  #inflightEnd = 0;
  #end = 0;
  /** The send's address words; low as signed 32-bit so it stays a small integer (no heap number). */
  sendLo = 0;
  sendHi = 0;

  constructor(loop: SocketLoop<LoopSocket>, fd: number, token: number, buffers: UringBuffers) {
    super(loop, fd, token, null);
    this.#buffers = buffers;
    this.#use(false);
  }

  /** Takes the socket's small slot, or (`big`) moves an empty small one to its big one. */
  #use(big: boolean): void {
    const slot = this.#buffers.slot(this.token, big);
    if (big) this.#capacity = SEND_SLOT_BYTES;
    this.#chunk = slot.chunk;
    this.#at = slot.at;
    this.#lo = slot.address % 2 ** 32;
    this.#hi = Math.floor(slot.address / 2 ** 32);
  }

  get inFlight(): boolean {
    return this.#inflightEnd !== this.#start;
  }

  /** The bytes of the send in flight, and those appended behind it (in no send yet). */
  get inFlightBytes(): number {
    return this.#inflightEnd - this.#start;
  }

  get queuedBytes(): number {
    return this.#end - this.#inflightEnd;
  }

  /** A view of the bytes appended behind the send in flight (for a close, never per message). */
  queued(): Uint8Array {
    return this.#chunk.subarray(this.#at + this.#inflightEnd, this.#at + this.#end);
  }

  /** Copies what fits of `bytes` after what waits: the bytes taken (0 when the slot is full). */
  append(bytes: Uint8Array): number {
    if (this.#end === 0 && bytes.length > this.#capacity && this.#capacity < SEND_SLOT_BYTES) this.#use(true);
    const n = Math.min(bytes.length, this.#capacity - this.#end);
    if (n <= 0) return 0;
    const chunk = this.#chunk;
    const at = this.#at + this.#end;
    if (n <= 64) { for (let i = 0; i < n; i++) chunk[at + i] = bytes[i]; }
    else chunk.set(n === bytes.length ? bytes : bytes.subarray(0, n), at);
    this.#end += n;
    return n;
  }

  /** Everything not yet sent goes in flight: its length (its address in `sendLo`/`sendHi`). */
  startSend(): number {
    this.#inflightEnd = this.#end;
    let lo = this.#lo + this.#start;
    let hi = this.#hi;
    if (lo >= 2 ** 32) {
      lo -= 2 ** 32;
      hi++;
    }
    this.sendLo = lo | 0;
    this.sendHi = hi;
    return this.#end - this.#start;
  }

  /** The send in flight took `n` bytes: true when bytes remain to send (appended, or a short send). */
  sent(n: number): boolean {
    this.#start += n;
    if (this.#start < this.#end) return true;
    this.clearSlot();
    return false;
  }

  clearSlot(): void {
    this.#start = this.#inflightEnd = this.#end = 0;
  }
}
