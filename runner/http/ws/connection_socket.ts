/**
 * @module
 * The socket side of a WebSocket load connection: `open` dials through the run's transport and runs the
 * handshake, reading any frames that came with its answer first; reads via inline_reads.ts, writes via
 * frame_writer.ts, `abort` says going away (1001). HOT PATH: on epoll and io_uring reads land in the
 * worker's shared buffer, so an idle connection holds no read buffer.
 */
import type { ErrorKind } from "../../../results/mod.ts";
import { FrameParser, type FrameSink } from "../../../ws/frame_parser.ts";
import { CLOSE_GOING_AWAY } from "../../../ws/opcodes.ts";
import type { ConnectionShared } from "../load_connection.ts";
import { type DialEnd, Dialer, hangUp } from "../transport/dial.ts";
import { type InlineConn, inlineOf, type TransportConn } from "../transport/transport.ts";
import { PromiseInline } from "../transport/promise_inline.ts";
import { giveBackHandshakeBuffer, handshake, offerOf, takeHandshakeBuffer } from "./handshake_io.ts";
import { FrameWriter, type WriteOwner } from "./frame_writer.ts";
import { CloseHandshake, readUntilServerCloses } from "./close_handshake.ts";
import { WS_READ_BUFFER_BYTES, type WsRun } from "./run.ts";
import { WsPacing } from "./pacing.ts";
import { type InlineHost, InlineReads } from "./inline_reads.ts";

export abstract class WsConnectionSocket implements FrameSink, InlineHost, WriteOwner, DialEnd {
  readonly maxDepth = 1;
  deadlineMs = Infinity;
  timedOut = false;
  lastEventMs = 0;
  protected sock: InlineConn | null = null;
  /** The dial under way, if any: made per connect, so an open connection keeps none. */
  #dialer: Dialer | null = null;
  /** A socket was opened before, so the next connect is a reconnect (unless we closed it on purpose). */
  #everOpened = false;
  /** The connection's own buffer for promise reads (Deno's sockets only; see the module comment). */
  #buf: Uint8Array | null = null;
  protected parser: FrameParser;
  /** When the bytes being parsed were read: the frames' handlers and close frames use it. */
  protected nowMs = 0;
  protected readonly writer = new FrameWriter(this);
  protected readonly close: CloseHandshake;
  protected readonly pacing: WsPacing;
  protected readonly reads: InlineReads;
  /** A handshake ran on this connection before (its parser was fed). */
  #shaken = false;
  /** `open`'s resolver while it dials. */
  #opened: ((open: boolean | Promise<boolean>) => void) | null = null;

  constructor(readonly id: number, readonly shared: ConnectionShared, readonly run: WsRun) {
    this.parser = new FrameParser(this, run.maxMessageBytes, false, run.budget);
    this.close = new CloseHandshake(this.writer, run);
    this.pacing = new WsPacing(run);
    this.reads = new InlineReads(run.readBuf, this);
  }

  // The message side (connection.ts): the reads' host and the frames' handlers.
  abstract exchangeActive(): boolean;
  abstract listens(): boolean;
  abstract consumeRead(buf: Uint8Array, n: number | null, nowMs: number): boolean;
  abstract failRead(err: unknown): void;
  abstract endExchange(): number;
  abstract chainNext(answered: number, sentMs: number): void;
  abstract onMessage(text: boolean, buf: Uint8Array, start: number, end: number): void;
  abstract onPing(buf: Uint8Array, start: number, end: number): void;
  abstract onPong(buf: Uint8Array, start: number, end: number): void;
  abstract onClose(code: number, buf: Uint8Array, start: number, end: number): void;

  get isOpen(): boolean {
    return this.sock !== null;
  }

  /** The dialer's socket, taken in the turn it connected. */
  adopt(sock: TransportConn): void {
    const inline = inlineOf(sock);
    // Deno's sockets read through promises: seen as inline, so reads stay armed between sends there too.
    const conn = inline ?? new PromiseInline(sock);
    this.sock = conn;
    this.reads.reset(
      conn,
      inline !== null ? this.run.readBuf : this.#buf ??= new Uint8Array(WS_READ_BUFFER_BYTES),
    );
    this.writer.reset(conn);
  }

  /** Dials, then runs the handshake; false when either failed (counted). */
  open(): Promise<boolean> {
    // No frame of ours until connected, and on epoll no promise of the dial's.
    return new Promise((resolve) => {
      this.#opened = resolve;
      (this.#dialer = new Dialer(this.shared, this, this.#everOpened)).dialThen(this);
    });
  }

  /** The dial's end (transport/dial.ts `DialEnd`): the handshake on its socket, or false. */
  dialEnded(sock: TransportConn | null): void {
    const opened = this.#opened!;
    this.#opened = null;
    this.#dialer = null;
    if (sock !== null) this.#everOpened = true;
    opened(sock !== null && this.#shake(sock));
  }

  /** The handshake on a socket just dialed; whether the connection is open after it. */
  async #shake(sock: TransportConn): Promise<boolean> {
    // A reconnect's parser starts anew; the first socket's is the one made with the connection.
    if (this.#shaken) {
      this.parser.release();
      this.parser = new FrameParser(this, this.run.maxMessageBytes, false, this.run.budget);
    }
    this.#shaken = true;
    this.close.reset();
    const done = await handshake(sock, takeHandshakeBuffer(this.run), offerOf(this.run), this.shared, this);
    if (done === null || this.sock === null) {
      this.closeSocket();
      return false;
    }
    // permessage-deflate is the server's choice, per connection.
    this.parser.deflate = done.deflate;
    this.pacing.reset(done.deflate);
    const extra = done.extraBytes;
    // Frames that came with the answer (a greeting) are read before any send.
    if (extra > 0) this.consumeRead(done.buf, extra, performance.now());
    const adopted = this.sock;
    if (this.close.received && adopted !== null) {
      await readUntilServerCloses(adopted, done.buf, () => this.sock === adopted);
      this.closeSocket();
      this.deadlineMs = Infinity;
    }
    // Its bytes parsed (the frame parser keeps none of a read's buffer), the socket reads elsewhere now.
    giveBackHandshakeBuffer(this.run, done.buf);
    this.reads.listen();
    return this.sock !== null;
  }

  /** A failure of the handshake or a frame fault, counted unless the run is stopping. */
  fault(nowMs: number, kind: ErrorKind, message: string): void {
    if (!this.shared.stopping) this.shared.recorder.recordError(nowMs, kind, message);
  }

  /** A write failed: the connection closes (its read fails with the write's error). */
  writeFailed(): void {
    this.abort();
  }

  /** Closes now (timeout, the run's end): an open connection says so first (1001, going away). */
  abort(): void {
    this.#dialer?.abort();
    if (this.sock !== null && this.shared.stopping && !this.timedOut) this.closeWith(CLOSE_GOING_AWAY);
    this.closeSocket();
    // After the close: a wait ended here finds the socket gone, so it settles instead of sending.
    this.pacing.endPause();
  }

  /** A close of our own after a storm connection or a per-arrival session. */
  release(): void {
    this.abort();
    this.#everOpened = false;
  }

  /** A storm connection's life is over: its socket closed, and the next exchange dials anew. */
  protected closeAfterUse(): void {
    this.closeSocket();
    this.#everOpened = false;
  }

  /** Sends a close frame with `code` (0: none) once per socket. */
  protected closeWith(code: number): void {
    if (this.sock !== null) this.close.send(code, this.nowMs);
  }

  protected closeSocket(): void {
    const sock = this.sock;
    if (sock === null) return;
    this.sock = null;
    this.reads.reset(null);
    this.writer.reset(null);
    this.parser.release();
    hangUp(this.shared, sock);
  }
}
