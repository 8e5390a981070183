/**
 * @module
 * Writes of one WebSocket connection, in order: a frame goes at once unless a write is in progress, so a pong
 * or close never lands inside a partly written data frame. What waits is bounded: a pong, a message, a close.
 */
import type { InlineConn } from "../transport/transport.ts";

/** The connection a writer writes for, told when a write failed (it closes the socket). */
export interface WriteOwner {
  writeFailed(): void;
}

export class FrameWriter {
  /** The socket, Deno's seen as inline (transport/promise_inline.ts: it takes no bytes at once). */
  #sock: InlineConn | null = null;
  #writing: Uint8Array | null = null;
  #offset = 0;
  #message: Uint8Array | null = null;
  /** A pong waiting behind the write in progress (only the newest ping is answered). */
  #pong: Uint8Array | null = null;
  /** Made when a frame first waits: a crowd that writes whole keeps no array a connection. */
  #queue: Uint8Array[] | null = null;
  /** Frames in `#queue`, kept apart so a write that finds none touches not the array. */
  #queued = 0;
  /** The failure of the last write, if any (the caller's read then fails: it is counted there). */
  error: unknown = null;
  /** Handlers of a promise write, bound on first use (a crowd that writes whole makes none). */
  #onWritten: ((n: number) => void) | null = null;
  #onError: ((err: unknown) => void) | null = null;
  /** Called when a write ends with nothing behind it (a flow's socket holds its next send till then). */
  onIdle: (() => void) | null = null;

  constructor(readonly owner: WriteOwner) {}

  reset(sock: InlineConn | null): void {
    this.#sock = sock;
    this.#writing = this.#message = this.#pong = null;
    this.#queue = null;
    this.#queued = 0;
    this.error = null;
  }

  get waitingFrames(): number {
    return this.#queued + (this.#pong === null ? 0 : 1);
  }

  get busy(): boolean {
    return this.#writing !== null;
  }

  /** A message's frame(s) handed over are not all written yet: no answer to it can have come. */
  get writingMessage(): boolean {
    return this.#message !== null;
  }

  /** Writes a message's frame(s); `writingMessage` holds until they are written whole. */
  sendMessage(bytes: Uint8Array): void {
    this.#message = bytes;
    this.send(bytes);
  }

  /** Writes a pong now, or after the write in progress in place of any pong already waiting. */
  sendPong(bytes: Uint8Array): void {
    if (this.#writing !== null) this.#pong = bytes;
    else this.send(bytes);
  }

  send(bytes: Uint8Array): void {
    if (this.#writing !== null) {
      (this.#queue ??= []).push(bytes);
      this.#queued++;
      return;
    }
    const sock = this.#sock;
    if (sock === null) return;
    this.#writing = bytes;
    this.#offset = 0;
    let n: number;
    try {
      n = sock.writeNow(bytes);
    } catch (err) {
      this.#failed(err);
      return;
    }
    this.#written(n);
  }

  #failed(err: unknown): void {
    this.error = err;
    this.owner.writeFailed();
  }

  #written(n: number): void {
    const bytes = this.#writing;
    if (bytes === null) return;
    this.#offset += n;
    if (this.#offset < bytes.length) {
      if (this.#sock === null) return;
      // Through the promise contract: the rest from its settlement, a failure to the owner.
      this.#onWritten ??= (n: number) => this.#written(n);
      this.#onError ??= (err: unknown) => this.#failed(err);
      this.#sock.write(bytes.subarray(this.#offset)).then(this.#onWritten, this.#onError);
      return;
    }
    this.#writing = null;
    if (bytes === this.#message) this.#message = null;
    const pong = this.#pong;
    this.#pong = null;
    if (pong !== null) this.send(pong);
    else if (this.#queued > 0) {
      this.#queued--;
      this.send(this.#queue!.shift()!);
    } else this.onIdle?.();
  }
}
