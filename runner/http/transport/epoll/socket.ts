/**
 * @module
 * One non-blocking TCP socket of the epoll transport, edge-triggered. HOT PATH: `onEvents` -> `serve` -> one
 * `read` -> the reader; `writeNow` is one `write`. `#readable` holds from an EPOLLIN edge until a short read.
 */
import { EAGAIN, EINTR, EPOLLERR, EPOLLHUP, EPOLLIN, EPOLLOUT, EPOLLRDHUP } from "./ffi.ts";
import { type InlineReader, TURN_READ_BYTES } from "../transport.ts";
import { TRACE_CONN, traceConn } from "../conn_trace.ts";
import { readError, readStateOf, writeError } from "../socket_errors.ts";
import { LoopSocket } from "../loop_socket.ts";

const READ_FLAGS = EPOLLIN | EPOLLRDHUP | EPOLLERR | EPOLLHUP;
const WRITE_FLAGS = EPOLLOUT | EPOLLERR | EPOLLHUP;
const CLOSED_FLAGS = EPOLLRDHUP | EPOLLERR | EPOLLHUP;

export class EpollSocket extends LoopSocket {
  #readable = false;
  /** The peer closed: reads go on until they return 0, as a FIN with the last bytes brings no edge. */
  #peerClosed = false;

  /** Reads into `buf`: libc `read`, or `SSL_read` over TLS (both: count, 0 at end, or `-errno`). */
  #recv(buf: Uint8Array): number {
    return this.ssl === null ? this.loop.sys.read(this.fd, buf) : this.ssl.read(buf);
  }

  #send(bytes: Uint8Array): number {
    return this.ssl === null ? this.loop.sys.write(this.fd, bytes) : this.ssl.write(bytes);
  }

  /** After a short read, whether nothing is left that no edge will announce (over TLS: OpenSSL too). */
  #drainedAfter(n: number, length: number): boolean {
    if (n >= length || this.#peerClosed) return false;
    if (this.ssl === null) return true;
    const drained = this.ssl.drained();
    return drained === 1 || (drained === -1 && this.loop.sys.bytesReadable(this.fd) === 0);
  }

  armRead(buf: Uint8Array, reader: InlineReader): void {
    if (this.armReader(buf, reader) && this.#readable) this.requeue();
  }

  write(bytes: Uint8Array): Promise<number> {
    if (this.fd < 0) return Promise.reject(new Deno.errors.BadResource("socket closed"));
    const n = this.#send(bytes);
    if (n >= 0) return Promise.resolve(n);
    if (n !== -EAGAIN && n !== -EINTR) return Promise.reject(writeError(-n, this.ssl?.failure));
    return this.writeLater(bytes);
  }

  writeNow(bytes: Uint8Array): number {
    if (this.fd < 0) throw new Deno.errors.BadResource("socket closed");
    const n = this.#send(bytes);
    if (n >= 0) return n;
    if (n === -EAGAIN || n === -EINTR) return 0;
    throw writeError(-n, this.ssl?.failure);
  }

  /** Closes the fd; pending calls fail as on a closed Deno.Conn, saying what the kernel had then. */
  close(): void {
    const fd = this.fd;
    if (fd < 0) return;
    this.fd = -1;
    const sys = this.loop.sys;
    const { state: connecting, waiter: connectWaiter } = this.connecting.abandon(fd);
    const reading = this.readArmed ? readStateOf(sys, fd, this.ssl !== null) : "";
    if (TRACE_CONN) {
      const detail = `token=${this.token} readable=${this.#readable} ${connecting}${reading}`;
      traceConn("epfd-sock", fd, "closed", detail);
    }
    this.ssl?.free();
    sys.closeDrained(fd);
    this.closed(connectWaiter, connecting, reading);
  }

  onEvents(flags: number): void {
    if (TRACE_CONN) {
      const reading = this.reader !== null;
      const detail = `token=${this.token} ${
        flags.toString(16)
      } connecting=${this.connecting.pending} reader=${reading}`;
      traceConn("epfd-sock", this.fd, "flags", detail);
    }
    if (this.connecting.pending) {
      this.connecting.edge((flags & (READ_FLAGS | WRITE_FLAGS)) !== 0, (flags & WRITE_FLAGS) !== 0);
    }
    if ((flags & READ_FLAGS) !== 0) {
      if ((flags & CLOSED_FLAGS) !== 0) this.#peerClosed = true;
      this.#readable = true;
      this.serve();
    }
    if (this.writeBytes !== null && (flags & WRITE_FLAGS) !== 0) this.#writeNow();
  }

  /** Serves the armed read while readable, up to TURN_READ_BYTES, then waits on the ready list. */
  protected serve(): void {
    let budget = TURN_READ_BYTES;
    while (this.#readable && this.fd >= 0 && this.reader !== null) {
      budget -= this.#readInline();
      if (budget <= 0 && this.#readable && this.fd >= 0) {
        this.requeue();
        break;
      }
    }
    if (this.fd >= 0) this.reader?.onDrained?.();
  }

  #readInline(): number {
    const buf = this.readBuf!;
    const n = this.#recv(buf);
    if (n === -EAGAIN || n === -EINTR) {
      this.#readable = false;
      return 0;
    }
    if (this.#drainedAfter(n, buf.length)) this.#readable = false;
    const reader = this.takeReader();
    const settled = n > 0
      ? reader.onRead(n)
      : n === 0
      ? reader.onRead(null)
      : reader.onReadError(readError(-n, this.ssl?.failure));
    if (settled) this.loop.asyncWakes++;
    return n > 0 ? n : 0;
  }

  #writeNow(): void {
    const n = this.#send(this.writeBytes!);
    if (n === -EAGAIN || n === -EINTR) return;
    this.settleWrite(n >= 0 ? n : writeError(-n, this.ssl?.failure));
  }
}
