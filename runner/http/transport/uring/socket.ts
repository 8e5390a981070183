/**
 * @module
 * One TCP socket of the io_uring transport: a multishot receive fills provided buffers, cancelled past
 * HELD_MAX_BYTES so a fast peer backs up in the kernel; writes go through the send slot in order.
 */
import { CQE_F_BUFFER, CQE_F_MORE, ECANCELED, ENOBUFS, POLLERR, POLLHUP, POLLOUT } from "./ffi.ts";
import type { UringRing } from "./ring.ts";
import { type ConnectWaiter, type InlineReader, TURN_READ_BYTES } from "../transport.ts";
import { readError, readStateOf, writeError } from "../socket_errors.ts";
import { HeldChunks } from "./held.ts";
import type { SocketLoop } from "../socket_table.ts";

/** Bytes one socket may hold received and not yet read before its receive is cancelled. */
export const HELD_MAX_BYTES = 64 * 1024;
/** What kind of request a CQE answers (the low byte of user_data's low word; the token above it). */
export const UD_RECV = 1;
export const UD_SEND = 2;
export const UD_POLL = 3;
const UD_CANCEL = 4;

export interface UringSocketLoop extends SocketLoop<UringSocket> {
  readonly ring: UringRing;
  /** A socket whose receive ran out of buffers: armed again when one comes back. */
  starved(sock: UringSocket): void;
  /** Why the loop failed (its ring refused to run), or null: said in each socket's close. */
  readonly failure: string | null;
}

export class UringSocket extends HeldChunks {
  declare readonly loop: UringSocketLoop;
  /** The receive is armed (until its last CQE), and a cancel was asked for it. */
  #receiving = false;
  #cancelling = false;
  /** The stream's end (0) or failure (`-errno`) once the receive reported it; 1 while open. */
  #end = 1;
  #writeErrno = 0;

  constructor(loop: UringSocketLoop, fd: number, token: number, readonly gen: number) {
    super(loop, fd, token, loop.ring.buffers);
  }

  /** A poll for writability waits for the connect, unless it completed at once. */
  override awaitConnect(waiter: ConnectWaiter, now: boolean): void {
    this.connecting.waitFor(waiter);
    if (now) this.connected();
    else this.loop.ring.prepPoll(this.fd, POLLOUT | POLLERR | POLLHUP, this.token << 8 | UD_POLL, this.gen);
  }

  /** The connect's poll completed (or the connect did at once): settled, and the receive armed. */
  connected(): void {
    this.connecting.connected();
    if (this.fd >= 0) this.armReceive();
  }

  /** Arms the multishot receive (again), unless held bytes are at their bound or the stream ended. */
  armReceive(): void {
    if (this.#receiving || this.fd < 0 || this.#end <= 0 || this.heldBytes >= HELD_MAX_BYTES) return;
    this.#receiving = true;
    this.#cancelling = false;
    this.loop.ring.prepRecvMultishot(this.fd, this.token << 8 | UD_RECV, this.gen);
  }

  onRecv(res: number, flags: number): void {
    if ((flags & CQE_F_MORE) === 0) this.#receiving = false;
    if (res > 0 && (flags & CQE_F_BUFFER) !== 0) {
      this.hold(flags >>> 16, res);
      if (this.heldBytes >= HELD_MAX_BYTES && this.#receiving && !this.#cancelling) {
        this.#cancelling = true;
        const ring = this.loop.ring;
        ring.prepCancel(this.token << 8 | UD_RECV, this.gen, this.token << 8 | UD_CANCEL, this.gen);
      }
    } else if (res === -ENOBUFS) {
      if (!this.#receiving) this.loop.starved(this);
    } else if (res <= 0 && res !== -ECANCELED) this.#end = res;
    // Its last CQE: armed again unless the bound, the end or a buffer shortage says otherwise.
    if (!this.#receiving && res !== -ENOBUFS) this.armReceive();
    this.serve();
  }

  /** Copies held bytes into `buf` (the bytes copied); the receive armed again below its bound. */
  #take(buf: Uint8Array): number {
    const n = this.takeHeld(buf);
    if (!this.#receiving && this.heldBytes < HELD_MAX_BYTES && this.#end > 0) this.armReceive();
    return n;
  }

  armRead(buf: Uint8Array, reader: InlineReader): void {
    if (!this.armReader(buf, reader)) return;
    if (this.heldCount > 0 || this.#end <= 0 || this.#writeErrno !== 0) this.requeue();
  }

  /** Hands held bytes (or the end, or a send's failure) to the armed read, TURN_READ_BYTES a turn. */
  protected serve(): void {
    let budget = TURN_READ_BYTES;
    let served = false;
    while (this.fd >= 0) {
      if (this.reader === null) return;
      if (this.heldCount === 0 && this.#end > 0 && this.#writeErrno === 0) break;
      if (budget <= 0) {
        this.requeue();
        break;
      }
      const buf = this.readBuf!;
      const reader = this.takeReader();
      served = true;
      let settled: boolean;
      if (this.heldCount > 0) {
        const n = this.#take(buf);
        budget -= n;
        settled = reader.onRead(n);
      } else if (this.#writeErrno !== 0) settled = reader.onReadError(writeError(this.#writeErrno));
      else settled = this.#end === 0 ? reader.onRead(null) : reader.onReadError(readError(-this.#end));
      if (settled) this.loop.asyncWakes++;
    }
    if (served && this.fd >= 0) this.reader?.onDrained?.();
  }

  write(bytes: Uint8Array): Promise<number> {
    if (this.fd < 0) return Promise.reject(new Deno.errors.BadResource("socket closed"));
    if (this.#writeErrno !== 0) return Promise.reject(writeError(this.#writeErrno));
    const n = this.#append(bytes);
    if (n > 0) return Promise.resolve(n);
    return this.writeLater(bytes);
  }

  writeNow(bytes: Uint8Array): number {
    if (this.fd < 0) throw new Deno.errors.BadResource("socket closed");
    if (this.#writeErrno !== 0) throw writeError(this.#writeErrno);
    return this.#append(bytes);
  }

  /** Copies what fits into the send slot (sent now unless a send is in flight); the bytes taken. */
  #append(bytes: Uint8Array): number {
    const n = this.append(bytes);
    if (n > 0 && !this.inFlight) this.#sendQueued();
    return n;
  }

  #sendQueued(): void {
    const length = this.startSend();
    this.loop.ring.prepSend(this.fd, this.sendLo, this.sendHi, length, this.token << 8 | UD_SEND, this.gen);
    this.loop.wait();
  }

  onSend(res: number): void {
    this.loop.waiting--;
    if (res < 0) {
      this.#writeErrno = -res;
      this.clearSlot();
      if (this.writeResolve !== null) this.settleWrite(writeError(-res));
      this.serve();
      return;
    }
    if (this.sent(res)) {
      this.#sendQueued();
      return;
    }
    const pending = this.writeBytes;
    if (pending !== null) this.settleWrite(this.#append(pending));
  }

  /** At the close, bytes behind a completed send go out before the FIN; behind a waiting one, dropped. */
  #flushQueued(fd: number): void {
    if (!this.inFlight || this.queuedBytes === 0) return;
    const ring = this.loop.ring;
    ring.enter(0, 0);
    if (ring.readyResult(this.token << 8 | UD_SEND, this.gen) !== this.inFlightBytes) return;
    this.loop.sys.write(fd, this.queued());
  }

  /** Cancels what is in flight, submits that now (no SQE may name a closed fd), and closes the socket. */
  close(): void {
    const fd = this.fd;
    if (fd < 0) return;
    const loop = this.loop;
    const { state: connecting, waiter: connectWaiter } = this.connecting.abandon(fd);
    const reading = this.readArmed && this.heldCount === 0 ? readStateOf(loop.sys, fd) : "";
    this.#flushQueued(fd);
    // Each request in flight cancelled by its user_data, a lookup in the ring's hash table: a cancel by fd
    // walks every request of the ring, seconds of the worker's time for a stop closing 10,000 sockets.
    const ring = loop.ring, ud = this.token << 8;
    if (this.#receiving) ring.prepCancel(ud | UD_RECV, this.gen, ud | UD_CANCEL, this.gen);
    if (this.inFlight) ring.prepCancel(ud | UD_SEND, this.gen, ud | UD_CANCEL, this.gen);
    if (connectWaiter !== null) ring.prepCancel(ud | UD_POLL, this.gen, ud | UD_CANCEL, this.gen);
    ring.enter(0, 0);
    this.fd = -1;
    loop.sys.closeDrained(fd);
    this.clearHeld();
    if (this.inFlight) loop.waiting--;
    this.closed(connectWaiter, connecting, loop.failure ?? reading);
  }
}
