/**
 * @module
 * The read an event-loop transport's socket holds for its user until settled: a promise read or an inline
 * one, never both, counted in its loop's `waiting`. Each socket decides when it settles; arming, taking and
 * dropping live here. HOT PATH: a few stores, nothing allocated.
 */
import { failReadClosed, type InlineReader } from "./transport.ts";

interface ReadLoop {
  /** Reads (and writes) waiting: the pump runs while some do. */
  waiting: number;
  wait(): void;
  settled(): void;
}

export class WaitingRead {
  buf: Uint8Array | null = null;
  /** The inline reader, or the promise's settlers: never both. */
  reader: InlineReader | null = null;
  onRead: ((n: number | null) => void) | null = null;
  onReadError: ((err: Error) => void) | null = null;

  constructor(readonly loop: ReadLoop) {}

  get armed(): boolean {
    return this.reader !== null || this.onRead !== null;
  }

  /** A promise read into `buf` that waits: settled by `resolve` or `reject`. */
  promise(buf: Uint8Array): Promise<number | null> {
    return new Promise((resolve, reject) => {
      this.buf = buf;
      this.onRead = resolve;
      this.onReadError = reject;
      this.loop.wait();
    });
  }

  /** Arms `reader` into `buf`; on a closed socket it fails in a microtask instead, and false is returned. */
  arm(fd: number, buf: Uint8Array, reader: InlineReader): boolean {
    if (fd < 0) {
      failReadClosed(reader);
      return false;
    }
    this.buf = buf;
    this.reader = reader;
    this.loop.wait();
    return true;
  }

  /** The inline reader, taken to be called (read `buf` first): it waits no more. */
  takeReader(): InlineReader {
    const reader = this.reader!;
    this.reader = null;
    this.buf = null;
    this.loop.waiting--;
    return reader;
  }

  /** Settles the promise read with `n` bytes (null: the end). */
  resolve(n: number | null): void {
    const resolve = this.onRead!;
    this.#settled();
    resolve(n);
  }

  reject(err: Error): void {
    const reject = this.onReadError!;
    this.#settled();
    reject(err);
  }

  #settled(): void {
    this.buf = null;
    this.onRead = this.onReadError = null;
    this.loop.settled();
  }

  /** The socket closed: the read waits no more (the caller fails what it took of it). */
  drop(): void {
    this.loop.waiting -= Number(this.reader !== null) + Number(this.onRead !== null);
    this.reader = this.buf = null;
    this.onRead = this.onReadError = null;
  }
}

/** The write a socket holds while the kernel has no room for it: its bytes and its promise's settlers. */
export class WaitingWrite {
  bytes: Uint8Array | null = null;
  onWrite: ((n: number) => void) | null = null;
  onWriteError: ((err: Error) => void) | null = null;

  constructor(readonly loop: ReadLoop) {}

  /** A promise write of `bytes` that waits: settled by `resolve` or `reject`. */
  promise(bytes: Uint8Array): Promise<number> {
    return new Promise((resolve, reject) => {
      this.bytes = bytes;
      this.onWrite = resolve;
      this.onWriteError = reject;
      this.loop.wait();
    });
  }

  resolve(n: number): void {
    const resolve = this.onWrite!;
    this.#settled();
    resolve(n);
  }

  reject(err: Error): void {
    const reject = this.onWriteError!;
    this.#settled();
    reject(err);
  }

  #settled(): void {
    this.bytes = null;
    this.onWrite = this.onWriteError = null;
    this.loop.settled();
  }

  /** The socket closed: the write waits no more (the caller fails what it took of it). */
  drop(): void {
    this.loop.waiting -= Number(this.onWrite !== null);
    this.bytes = null;
    this.onWrite = this.onWriteError = null;
  }
}

/** A closed socket's waiting read and write fail as on a closed Deno.Conn, saying `why` when known. */
export function failClosed(read: WaitingRead, write: WaitingWrite, why: string): void {
  const { reader, onReadError } = read;
  const onWriteError = write.onWriteError;
  read.drop();
  write.drop();
  // Made only when someone waits for it: a connection closed after its last response (every
  // Connection: close exchange) has nothing pending, and an Error's stack costs a microsecond or more.
  if (reader === null && onReadError === null && onWriteError === null) return;
  const closed = new Deno.errors.BadResource(why ? `socket closed: ${why}` : "socket closed");
  reader?.onReadError(closed);
  onReadError?.(closed);
  onWriteError?.(closed);
}
