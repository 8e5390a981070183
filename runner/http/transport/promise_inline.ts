/**
 * @module
 * A socket that reads through promises (Deno's sockets and TLS) seen as an `InlineConn`, under the pumps'
 * contract: never called inside `armRead`, and `close` fails an armed read at once. Writes stay promises.
 */
import { nextTurn } from "../../load/clock.ts";
import {
  failReadClosed,
  type InlineConn,
  type InlineReader,
  type TransportConn,
  TURN_READ_BYTES,
} from "./transport.ts";
import { closeQuietly } from "../../../system/descriptors.ts";

export class PromiseInline implements InlineConn {
  #buf: Uint8Array | null = null;
  #reader: InlineReader | null = null;
  #budget = TURN_READ_BYTES;
  #closed = false;
  readonly #onRead = (n: number | null) => {
    const reader = this.#take();
    if (reader === null) return;
    this.#budget -= n ?? 0;
    reader.onRead(n);
    // The read took what the socket had: a reader armed again writes once for all it queued.
    if (!this.#closed) this.#reader?.onDrained?.();
  };
  readonly #onError = (err: unknown) => this.#take()?.onReadError(err);
  readonly #start = () => {
    if (this.#reader !== null) this.sock.read(this.#buf!).then(this.#onRead, this.#onError);
  };

  constructor(readonly sock: TransportConn) {}

  read(buf: Uint8Array): Promise<number | null> {
    return this.sock.read(buf);
  }

  write(bytes: Uint8Array): Promise<number> {
    return this.sock.write(bytes);
  }

  writeNow(_bytes: Uint8Array): number {
    return 0;
  }

  nowMs(): number {
    return performance.now();
  }

  armRead(buf: Uint8Array, reader: InlineReader): void {
    if (this.#closed) {
      failReadClosed(reader);
      return;
    }
    this.#buf = buf;
    this.#reader = reader;
    if (this.#budget > 0) {
      this.#start();
      return;
    }
    this.#budget = TURN_READ_BYTES;
    nextTurn().then(this.#start);
  }

  /** The armed reader, taken to be called; null after the close (its failure was said then). */
  #take(): InlineReader | null {
    const reader = this.#reader;
    this.#reader = this.#buf = null;
    return this.#closed ? null : reader;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const reader = this.#reader;
    this.#reader = this.#buf = null;
    closeQuietly(this.sock);
    reader?.onReadError(new Deno.errors.BadResource("socket closed"));
  }
}
