/**
 * @module
 * The base of the epoll and io_uring sockets: its slot in the loop, its connect phase, the read it holds for
 * its user until settled and the write the kernel had no room for. HOT PATH: nothing allocated.
 */
import { type ConnectWaiter, failReadClosed, type InlineConn, type InlineReader } from "./transport.ts";
import { ConnectPhase } from "./connect_phase.ts";
import type { SocketLoop } from "./socket_table.ts";
import type { SslConn } from "../tls/openssl_conn.ts";

export abstract class LoopSocket implements InlineConn {
  /** On the loop's ready list already: a re-arm while readable does not add it twice. */
  #queued = false;
  /** The connect and, over TLS, the handshake: until the connect's promise settles. */
  readonly connecting: ConnectPhase;
  /** The armed read's buffer and its reader (`read`'s promise is one too). */
  readBuf: Uint8Array | null = null;
  reader: InlineReader | null = null;
  /** The write waiting for kernel room: its bytes and its promise's settlers. */
  writeBytes: Uint8Array | null = null;
  writeResolve: ((n: number) => void) | null = null;
  writeReject: ((err: Error) => void) | null = null;

  constructor(
    readonly loop: SocketLoop<LoopSocket>,
    public fd: number,
    readonly token: number,
    readonly ssl: SslConn | null,
  ) {
    this.connecting = new ConnectPhase(this);
  }

  abstract write(bytes: Uint8Array): Promise<number>;
  abstract armRead(buf: Uint8Array, reader: InlineReader): void;
  abstract writeNow(bytes: Uint8Array): number;
  abstract close(): void;
  /** Hands what the socket has to its armed read, up to TURN_READ_BYTES a turn. */
  protected abstract serve(): void;

  awaitConnect(waiter: ConnectWaiter, now: boolean): void {
    if (now && this.ssl === null) return waiter.connected(this);
    this.connecting.waitFor(waiter);
    if (now) this.connecting.connected();
  }

  /** https: how long the handshake took (Connection reads it for `tlsMs`); -1 for plain TCP. */
  get tlsMs(): number {
    return this.connecting.tlsMs;
  }

  nowMs(): number {
    return this.loop.sys.nowMs();
  }

  get readArmed(): boolean {
    return this.reader !== null;
  }

  protected requeue(): void {
    if (this.#queued) return;
    this.#queued = true;
    this.loop.ready(this);
  }

  /** The loop's ready list: a read armed on a readable socket, or its turn's budget spent. */
  serveReady(): void {
    this.#queued = false;
    this.serve();
  }

  /** Deno.Conn's read, as one armed read (the WebSocket handshake's; load connections arm their own). */
  read(buf: Uint8Array): Promise<number | null> {
    return new Promise((resolve, reject) => {
      this.armRead(buf, { onRead: (n) => (resolve(n), true), onReadError: (err) => (reject(err), true) });
    });
  }

  /** Arms `reader` into `buf`; on a closed socket it fails in a microtask instead, and false is returned. */
  protected armReader(buf: Uint8Array, reader: InlineReader): boolean {
    if (this.fd < 0) {
      failReadClosed(reader);
      return false;
    }
    this.readBuf = buf;
    this.reader = reader;
    this.loop.wait();
    return true;
  }

  /** The inline reader, taken to be called (read `readBuf` first): it waits no more. */
  protected takeReader(): InlineReader {
    const reader = this.reader!;
    this.reader = null;
    this.readBuf = null;
    this.loop.waiting--;
    return reader;
  }

  protected writeLater(bytes: Uint8Array): Promise<number> {
    return new Promise((resolve, reject) => {
      this.writeBytes = bytes;
      this.writeResolve = resolve;
      this.writeReject = reject;
      this.loop.wait();
    });
  }

  protected settleWrite(n: number | Error): void {
    const { writeResolve, writeReject } = this;
    this.writeBytes = null;
    this.writeResolve = this.writeReject = null;
    this.loop.settled();
    if (n instanceof Error) writeReject!(n);
    else writeResolve!(n);
  }

  /** The end of a close: the slot freed, a waiting connect, read and write failed as Deno.Conn's. */
  protected closed(
    connectWaiter: { connectFailed(err: unknown): void } | null,
    connecting: string,
    why: string,
  ) {
    this.loop.release(this.token);
    connectWaiter?.connectFailed(new Deno.errors.Interrupted(connecting));
    const { reader, writeReject } = this;
    this.loop.waiting -= Number(reader !== null) + Number(this.writeResolve !== null);
    this.reader = this.readBuf = this.writeBytes = null;
    this.writeResolve = this.writeReject = null;
    // Made only when someone waits for it: an Error's stack costs a microsecond or more.
    if (reader === null && writeReject === null) return;
    const closed = new Deno.errors.BadResource(why ? `socket closed: ${why}` : "socket closed");
    reader?.onReadError(closed);
    writeReject?.(closed);
  }
}
