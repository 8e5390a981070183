/**
 * @module
 * Writes of one WebSocket connection, in order: a frame is written at once (inline transports: what
 * the kernel takes now, the rest through the promise contract) unless a write is still in progress,
 * in which case it waits in a queue behind it, so a pong or a close never lands inside a data frame
 * the kernel took only part of. Nothing is allocated per write on the usual path (written whole).
 */
import type { InlineConn, TransportConn } from "../transport/transport.ts";

export class FrameWriter {
  #sock: TransportConn | null = null;
  #inline: InlineConn | null = null;
  #writing: Uint8Array | null = null;
  #offset = 0;
  readonly #queue: Uint8Array[] = [];
  /** The failure of the last write, if any (the caller's read then fails: it is counted there). */
  error: unknown = null;
  readonly #onWritten = (n: number) => this.#written(n);
  readonly #onError = (err: unknown) => {
    this.error = err;
    this.onError();
  };

  /** `onError`: a write failed (the caller closes the socket). */
  constructor(readonly onError: () => void) {}

  /** A new socket (or none): anything queued for the old one is dropped. */
  reset(sock: TransportConn | null, inline: InlineConn | null): void {
    this.#sock = sock;
    this.#inline = inline;
    this.#writing = null;
    this.#queue.length = 0;
    this.error = null;
  }

  /** Writes now, or after the write in progress. */
  send(bytes: Uint8Array): void {
    if (this.#writing !== null) {
      this.#queue.push(bytes);
      return;
    }
    const sock = this.#sock;
    if (sock === null) return;
    this.#writing = bytes;
    this.#offset = 0;
    const inline = this.#inline;
    if (inline === null) {
      sock.write(bytes).then(this.#onWritten, this.#onError);
      return;
    }
    let n: number;
    try {
      n = inline.writeNow(bytes);
    } catch (err) {
      this.#onError(err);
      return;
    }
    this.#written(n);
  }

  #written(n: number): void {
    const bytes = this.#writing;
    if (bytes === null) return;
    this.#offset += n;
    if (this.#offset < bytes.length) {
      this.#sock?.write(bytes.subarray(this.#offset)).then(this.#onWritten, this.#onError);
      return;
    }
    this.#writing = null;
    const queued = this.#queue.shift();
    if (queued !== undefined) this.send(queued);
  }
}
