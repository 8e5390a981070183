/**
 * @module
 * One non-blocking TCP socket of the epoll transport, edge-triggered, with both contracts of
 * transport/transport.ts. HOT PATH: `onEvents` -> `#serve` -> one `read` -> the reader; `writeNow` is one
 * `write`. `#readable` holds from an EPOLLIN edge until a short read; over TLS only once OpenSSL and the
 * kernel queue are proven empty. A readable socket is served TURN_READ_BYTES per turn.
 */
import { EAGAIN, EINTR, EPOLLERR, EPOLLHUP, EPOLLIN, EPOLLOUT, EPOLLRDHUP } from "./ffi.ts";
import {
  type ConnectWaiter,
  type InlineConn,
  type InlineReader,
  type TransportConn,
  TURN_READ_BYTES,
} from "../transport.ts";
import { TRACE_CONN, traceConn } from "../conn_trace.ts";
import type { SslConn } from "../../tls/openssl_conn.ts";
import { readError, readStateOf, writeError } from "./errors.ts";
import { ConnectPhase } from "./connect.ts";
import { failClosed, WaitingRead, WaitingWrite } from "../waiting_read.ts";
import type { SocketLoop } from "../socket_table.ts";

const READ_FLAGS = EPOLLIN | EPOLLRDHUP | EPOLLERR | EPOLLHUP;
const WRITE_FLAGS = EPOLLOUT | EPOLLERR | EPOLLHUP;
const CLOSED_FLAGS = EPOLLRDHUP | EPOLLERR | EPOLLHUP;

export class EpollSocket implements InlineConn {
  #readable = false;
  /** The peer closed: reads go on until they return 0, as a FIN with the last bytes brings no edge. */
  #peerClosed = false;
  /** On the loop's ready list already: a re-arm while readable does not add it twice. */
  #queued = false;
  readonly #read: WaitingRead;
  readonly #write: WaitingWrite;
  /** The connect and, over TLS, the handshake: until the connect's promise settles. */
  readonly #connect = new ConnectPhase(this);

  constructor(
    readonly loop: SocketLoop<EpollSocket>,
    public fd: number,
    readonly token: number,
    readonly ssl: SslConn | null = null,
  ) {
    this.#read = new WaitingRead(loop);
    this.#write = new WaitingWrite(loop);
  }

  /** Reads into `buf`: libc `read`, or `SSL_read` over TLS (both: count, 0 at end, or `-errno`). */
  #recv(buf: Uint8Array): number {
    return this.ssl === null ? this.loop.sys.read(this.fd, buf) : this.ssl.read(buf);
  }

  #send(bytes: Uint8Array): number {
    return this.ssl === null ? this.loop.sys.write(this.fd, bytes) : this.ssl.write(bytes);
  }

  /**
   * After a short read, whether nothing is left that no edge will announce: plain TCP, yes; over TLS
   * OpenSSL must hold nothing and the kernel's queue be empty (proven by a short pull, else `FIONREAD`).
   */
  #drainedAfter(n: number, length: number): boolean {
    if (n >= length || this.#peerClosed) return false;
    if (this.ssl === null) return true;
    const drained = this.ssl.drained();
    return drained === 1 || (drained === -1 && this.loop.sys.bytesReadable(this.fd) === 0);
  }

  /** https: how long the handshake took (Connection reads it for `tlsMs`); -1 for plain TCP. */
  get tlsMs(): number {
    return this.#connect.tlsMs;
  }

  /** The connect completed at once (loopback): over TLS the handshake starts now. */
  connectedNow(): void {
    this.#connect.connected();
  }

  awaitConnect(signal: AbortSignal): Promise<TransportConn> {
    return this.#connect.wait(signal);
  }

  waitConnect(waiter: ConnectWaiter): void {
    this.#connect.waitFor(waiter);
  }

  read(buf: Uint8Array): Promise<number | null> {
    if (this.fd < 0) return Promise.reject(new Deno.errors.BadResource("socket closed"));
    if (this.#readable) {
      const n = this.#recv(buf);
      if (n >= 0) {
        if (this.#drainedAfter(n, buf.length)) this.#readable = false;
        return Promise.resolve(n === 0 ? null : n);
      }
      this.#readable = false;
      if (n !== -EAGAIN && n !== -EINTR) return Promise.reject(readError(-n, this.ssl?.failure));
    }
    return this.#read.promise(buf);
  }

  armRead(buf: Uint8Array, reader: InlineReader): void {
    if (this.#read.arm(this.fd, buf, reader) && this.#readable) this.#requeue();
  }

  /** Onto the pump's ready list (once): served in its next round, after the others. */
  #requeue(): void {
    if (this.#queued) return;
    this.#queued = true;
    this.loop.ready(this);
  }

  write(bytes: Uint8Array): Promise<number> {
    if (this.fd < 0) return Promise.reject(new Deno.errors.BadResource("socket closed"));
    const n = this.#send(bytes);
    if (n >= 0) return Promise.resolve(n);
    if (n !== -EAGAIN && n !== -EINTR) return Promise.reject(writeError(-n, this.ssl?.failure));
    return this.#write.promise(bytes);
  }

  writeNow(bytes: Uint8Array): number {
    if (this.fd < 0) throw new Deno.errors.BadResource("socket closed");
    const n = this.#send(bytes);
    if (n >= 0) return n;
    if (n === -EAGAIN || n === -EINTR) return 0;
    throw writeError(-n, this.ssl?.failure);
  }

  nowMs(): number {
    return this.loop.sys.nowMs();
  }

  /** Closes the fd; pending calls fail as on a closed Deno.Conn, saying what the kernel had then. */
  close(): void {
    const fd = this.fd;
    if (fd < 0) return;
    this.fd = -1;
    const sys = this.loop.sys;
    const { state: connecting, waiter: connectWaiter } = this.#connect.abandon(fd);
    const reading = this.#read.armed ? readStateOf(sys, fd) : "";
    if (TRACE_CONN) {
      const detail = `token=${this.token} readable=${this.#readable} ${connecting}${reading}`;
      traceConn("epfd-sock", fd, "closed", detail);
    }
    this.ssl?.free();
    sys.closeDrained(fd);
    this.loop.release(this.token);
    connectWaiter?.connectFailed(new Deno.errors.Interrupted(connecting));
    failClosed(this.#read, this.#write, reading);
  }

  onEvents(flags: number): void {
    if (TRACE_CONN) {
      const reading = this.#read.reader !== null;
      const detail = `token=${this.token} ${
        flags.toString(16)
      } connecting=${this.#connect.pending} reader=${reading}`;
      traceConn("epfd-sock", this.fd, "flags", detail);
    }
    if (this.#connect.pending) {
      this.#connect.edge((flags & (READ_FLAGS | WRITE_FLAGS)) !== 0, (flags & WRITE_FLAGS) !== 0);
    }
    if ((flags & READ_FLAGS) !== 0) {
      if ((flags & CLOSED_FLAGS) !== 0) this.#peerClosed = true;
      this.#readable = true;
      this.#serve();
    }
    if (this.#write.bytes !== null && (flags & WRITE_FLAGS) !== 0) this.#writeNow();
  }

  /**
   * Serves the armed read while the socket is readable, up to TURN_READ_BYTES, then waits on the ready
   * list (the reader told, so its queued writes go now); a promise read once.
   */
  #serve(): void {
    const read = this.#read;
    let budget = TURN_READ_BYTES;
    while (this.#readable && this.fd >= 0) {
      if (read.reader !== null) {
        budget -= this.#readInline();
        if (budget <= 0 && this.#readable && this.fd >= 0) {
          this.#requeue();
          break;
        }
      } else {
        if (read.onRead !== null) this.#readNow();
        return;
      }
    }
    if (this.fd >= 0) read.reader?.onDrained?.();
  }

  /** The pump's ready list: a read armed on a readable socket, or its turn's budget spent. */
  serveReady(): void {
    this.#queued = false;
    this.#serve();
  }

  /** One read handed to the armed reader; returns the bytes read (0 when none). */
  #readInline(): number {
    const buf = this.#read.buf!;
    const n = this.#recv(buf);
    if (n === -EAGAIN || n === -EINTR) {
      this.#readable = false;
      return 0;
    }
    if (this.#drainedAfter(n, buf.length)) this.#readable = false;
    const reader = this.#read.takeReader();
    const settled = n > 0
      ? reader.onRead(n)
      : n === 0
      ? reader.onRead(null)
      : reader.onReadError(readError(-n, this.ssl?.failure));
    if (settled) this.loop.asyncWakes++;
    return n > 0 ? n : 0;
  }

  #readNow(): void {
    const buf = this.#read.buf!;
    const n = this.#recv(buf);
    if (n === -EAGAIN || n === -EINTR) {
      this.#readable = false;
      return;
    }
    if (n >= 0 && this.#drainedAfter(n, buf.length)) this.#readable = false;
    if (n >= 0) this.#read.resolve(n === 0 ? null : n);
    else this.#read.reject(readError(-n, this.ssl?.failure));
  }

  #writeNow(): void {
    const n = this.#send(this.#write.bytes!);
    if (n === -EAGAIN || n === -EINTR) return;
    if (n >= 0) this.#write.resolve(n);
    else this.#write.reject(writeError(-n, this.ssl?.failure));
  }
}
