/**
 * @module
 * One WebSocket load connection: `open` dials and runs the handshake; an `exchange` sends one message and
 * waits for its match. One read stays armed between exchanges, so broadcasts are timed as they arrive.
 * HOT PATH: frames masked in place, messages handled as views; failures are counted by kind, never thrown.
 */
import { CLOSE_ABNORMAL, CLOSE_GOING_AWAY, CLOSE_NO_STATUS, CLOSE_NORMAL } from "../../../ws/opcodes.ts";
import { classifyError, errorMessage } from "../exchange_errors.ts";
import type { ConnectionShared, LoadConnection, NextExchange } from "../load_connection.ts";
import { type DialEnd, Dialer } from "../transport/dial.ts";
import { inlineOf, type TransportConn } from "../transport/transport.ts";
import { giveBackHandshakeBuffer, handshake, offerOf, takeHandshakeBuffer } from "./handshake_io.ts";
import { readUntilServerCloses, WsSocket } from "./socket.ts";
import { WS_READ_BUFFER_BYTES, type WsRun } from "./run.ts";
import { WsPacing } from "./pacing.ts";
import { type AnswerMatch, answerMatchOf, fanoutUs } from "./answer_match.ts";
import { WsExchange } from "./exchange.ts";

export class WsConnection extends WsSocket implements LoadConnection, DialEnd {
  readonly maxDepth = 1;
  deadlineMs = Infinity;
  timedOut = false;
  lastEventMs = 0;
  /** The dial under way, if any: made per connect, so an open connection keeps none. */
  #dialer: Dialer | null = null;
  /** A socket was opened before, so the next connect is a reconnect (unless we closed it on purpose). */
  #everOpened = false;
  #buf: Uint8Array | null = null;
  readonly #pacing: WsPacing;
  /** The buffer reads go into (the worker's shared one, or `#buf`), and whether one is armed. */
  #readBuf: Uint8Array;
  #armed = false;
  /** Resolves the exchange (or the chain of them); `#next` grants the chain's next. */
  #settle: ((n: number) => void) | null = null;
  #next: NextExchange | null = null;
  #opened: ((open: boolean | Promise<boolean>) => void) | null = null;

  readonly #match: AnswerMatch;
  readonly #ex: WsExchange;
  /** Hold's wait: when its ping was meant to go (< 0: when sent), and its end's handler, bound once. */
  #holdIntendedMs = -1;
  #onHoldWaited: (() => void) | null = null;
  #onThought: (() => void) | null = null;

  constructor(readonly id: number, shared: ConnectionShared, override readonly run: WsRun) {
    super(shared, run);
    this.#pacing = new WsPacing(run);
    this.#readBuf = run.readBuf;
    this.#match = answerMatchOf(run.match);
    this.#ex = new WsExchange(shared.recorder);
  }

  /** Deno's sockets read through promises: seen as inline, so reads stay armed between sends there too. */
  adopt(sock: TransportConn): void {
    this.#readBuf = inlineOf(sock) !== null
      ? this.run.readBuf
      : this.#buf ??= new Uint8Array(WS_READ_BUFFER_BYTES);
    this.takeSocket(sock);
    this.#armed = false;
  }

  open(): Promise<boolean> {
    // No frame of ours until connected, and on epoll no promise of the dial's.
    return new Promise((resolve) => {
      this.#opened = resolve;
      (this.#dialer = new Dialer(this.shared, this, this.#everOpened)).dialThen(this);
    });
  }

  dialEnded(sock: TransportConn | null): void {
    const opened = this.#opened!;
    this.#opened = null;
    this.#dialer = null;
    if (sock !== null) this.#everOpened = true;
    opened(sock !== null && this.#shake(sock));
  }

  async #shake(sock: TransportConn): Promise<boolean> {
    const done = await handshake(sock, takeHandshakeBuffer(this.run), offerOf(this.run), this.shared, this);
    if (done === null || this.sock === null) {
      this.closeSocket();
      return false;
    }
    this.parser.deflate = done.deflate;
    this.#pacing.reset(done.deflate);
    const extra = done.extraBytes;
    // Frames that came with the answer (a greeting) are read before any send.
    if (extra > 0) this.#consumeRead(done.buf, extra, performance.now());
    const adopted = this.sock;
    if (this.closeReceived && adopted !== null) {
      await readUntilServerCloses(adopted, done.buf, () => this.sock === adopted);
      this.closeSocket();
      this.deadlineMs = Infinity;
    }
    // Its bytes parsed (the frame parser keeps none of a read's buffer), the socket reads elsewhere now.
    giveBackHandshakeBuffer(this.run, done.buf);
    this.#listen();
    return this.sock !== null;
  }

  writeFailed(): void {
    this.abort();
  }

  /** Closes now (timeout, the run's end): an open connection says so first (1001, going away). */
  abort(): void {
    this.#dialer?.abort();
    if (this.shared.stopping && !this.timedOut) this.closeWith(CLOSE_GOING_AWAY);
    this.closeSocket();
    // After the close: a wait ended here finds the socket gone, so it settles instead of sending.
    this.#pacing.endPause();
  }

  release(): void {
    this.abort();
    this.#everOpened = false;
  }

  /** Sends one message (hold: pings) and resolves with the answers counted; `next` chains as in h1. */
  exchange(
    intendedMs: number,
    _depth = 1,
    _request: unknown = null,
    next: NextExchange | null = null,
  ): Promise<number> {
    if (this.sock === null) {
      return this.open().then((open) => open ? this.exchange(intendedMs, 1, null, next) : 0);
    }
    return new Promise((resolve) => {
      this.#settle = resolve;
      this.#next = next;
      if (this.run.pingIntervalMs === 0) this.#begin(intendedMs, -1);
      else this.#holdWait(intendedMs);
    });
  }

  /** Hold's idle wait before its ping, on the worker's one timer; chains wait here from the pong. */
  #holdWait(intendedMs: number): void {
    this.deadlineMs = Infinity;
    this.#holdIntendedMs = intendedMs;
    this.#pacing.pause(this.run.pingIntervalMs, this.#onHoldWaited ??= () => this.#holdWaited());
  }

  /** The wait is over: the ping, or (the socket gone meanwhile) the chain settles with what it counted. */
  #holdWaited(): void {
    if (this.sock === null) this.#end();
    else this.#begin(this.#holdIntendedMs, -1);
  }

  #begin(intendedMs: number, sentMs: number): void {
    if (sentMs < 0) sentMs = performance.now();
    this.lastEventMs = sentMs;
    this.deadlineMs = sentMs + this.shared.timeoutMs;
    this.timedOut = false;
    this.writer.error = null;
    this.#match.reset();
    const bytes = this.#pacing.nextFrame(sentMs);
    this.#ex.sent(intendedMs, sentMs, bytes.length);
    // Armed before the write, so a write that fails at once fails the armed read, as on Deno.Conn.
    this.#arm();
    this.writer.sendMessage(bytes);
  }

  #arm(): void {
    if (this.#armed || this.sock === null) return;
    this.#armed = true;
    this.sock.armRead(this.#readBuf, this);
  }

  /** InlineReader: a read between exchanges is taken as it comes; in one, it reads on or ends it. */
  onRead(n: number | null): boolean {
    this.#armed = false;
    const sock = this.sock;
    if (!this.#ex.active) {
      if (sock !== null) this.#consumeRead(this.#readBuf, n, sock.nowMs());
      this.#listen();
      return false;
    }
    if (sock === null) return this.#end();
    if (!this.#consumeRead(this.#readBuf, n, sock.nowMs())) {
      this.#arm();
      return false;
    }
    return this.#end();
  }

  onReadError(err: unknown): boolean {
    this.#armed = false;
    const nowMs = performance.now();
    const closing = this.#ex.active && this.closeSent && !this.closeReceived;
    const waiting = this.#waiting();
    const timedOut = this.timedOut;
    this.abort();
    if (!waiting && !closing) return this.#end();
    if (timedOut) {
      const what = waiting ? "no answer" : "no close frame from the server";
      this.fault(nowMs, "timeout", `${what} within ${this.shared.timeoutMs} ms`);
    } else if (this.writer.error !== null) {
      this.fault(nowMs, classifyError(this.writer.error, "write"), errorMessage(this.writer.error));
    } else this.fault(nowMs, classifyError(err, "read"), errorMessage(err));
    return this.#end();
  }

  #end(): boolean {
    const done = this.#ex.end();
    this.deadlineMs = Infinity;
    // A storm connection's life is over: its socket closed, and the next exchange dials anew.
    if (this.run.messagesPerConnection > 0 && this.sock !== null) {
      this.closeSocket();
      this.#everOpened = false;
    }
    const next = this.#next;
    if (next !== null && this.sock !== null && next(1, this.lastEventMs) > 0) {
      this.#ex.carry(done);
      if (this.run.pingIntervalMs === 0) this.#begin(-1, this.lastEventMs);
      else {
        this.#holdWait(-1);
        this.#listen();
      }
      return false;
    }
    const settle = this.#settle;
    this.#settle = this.#next = null;
    settle?.(done);
    this.#listen();
    return true;
  }

  /** Keeps a read armed between exchanges (not a storm's), so what the server sends is taken as it comes. */
  #listen(): void {
    if (!this.#ex.active && this.run.messagesPerConnection === 0) this.#arm();
  }

  /** Takes `n` bytes read into `buf` (null: the stream's end) at `nowMs`; true when the exchange is over. */
  #consumeRead(buf: Uint8Array, n: number | null, nowMs: number): boolean {
    this.lastEventMs = this.nowMs = nowMs;
    if (n === null) {
      if (!this.closeReceived) {
        this.run.stats.closeCode(nowMs, CLOSE_ABNORMAL);
        if (this.#waiting()) this.fault(nowMs, "ws-closed", "connection closed without a close frame (1006)");
      }
      this.closeSocket();
      return true;
    }
    this.shared.recorder.addBytesRead(nowMs, n);
    if (!this.parser.feed(buf, 0, n)) {
      this.fault(nowMs, this.frameFault(), this.parser.faultMessage);
      this.closeSocket();
      return true;
    }
    // After the server's close, the exchange ends with its TCP close (below: n === null), not before.
    return this.sock === null || (this.#ex.over && !this.closeReceived);
  }

  /** A send of this exchange still waits for its answer (not the close handshake after a storm). */
  #waiting(): boolean {
    return this.#ex.active && !this.#ex.over && !this.closeSent;
  }

  /** A message from the server may answer the send: it waits, and was written whole (else none could). */
  #answerable(): boolean {
    return this.#waiting() && !this.writer.writingMessage;
  }

  onMessage(_text: boolean, buf: Uint8Array, start: number, end: number): void {
    const nowMs = this.nowMs;
    const stats = this.run.stats;
    const counted = stats.received(nowMs, end - start);
    if (this.#answerable() && this.run.pingIntervalMs === 0 && this.#match.answers(buf, start, end)) {
      const ex = this.#ex;
      this.#answer(nowMs, this.run.messagesPerConnection > 0 ? ex.sentMs : ex.intendedMs);
      return;
    }
    if (!counted) return;
    stats.unsolicited++;
    const fanout = fanoutUs(buf, start, end, performance.timeOrigin + nowMs);
    if (fanout >= 0) stats.fanout(fanout);
  }

  onPong(): void {
    const nowMs = this.nowMs;
    if (this.run.stats.counts(nowMs)) this.run.stats.pongsReceived++;
    if (this.#answerable() && this.run.pingIntervalMs > 0) this.#answer(nowMs, this.#ex.sentMs);
  }

  onClose(code: number): void {
    const nowMs = this.nowMs;
    this.closeReceived = true;
    this.run.stats.closeCode(nowMs, code);
    if (this.#waiting()) this.fault(nowMs, "ws-closed", "server closed with a message unanswered");
    // Answer the server's close with its code (RFC 6455 5.5.1) unless ours went first, then let the server
    // close TCP first (7.1.1: the TIME_WAIT is the server's), at most a timeout.
    this.closeWith(code === CLOSE_NO_STATUS ? 0 : code);
    this.#ex.over = true;
    this.deadlineMs = nowMs + this.shared.timeoutMs;
  }

  /** The message (or ping) answered: recorded; a storm sends its next one, or closes after its last. */
  #answer(nowMs: number, fromMs: number): void {
    this.#ex.answered(nowMs, fromMs);
    if (this.run.messagesPerConnection === 0) {
      this.#ex.over = true;
      return;
    }
    const thinkMs = this.#pacing.stormNext(this.shared.stopping);
    if (thinkMs > 0) {
      this.deadlineMs = Infinity;
      this.#pacing.pause(thinkMs, this.#onThought ??= () => this.#thought());
      return;
    }
    if (thinkMs === 0) {
      this.#begin(-1, nowMs);
      return;
    }
    // The storm's last answer: our close (1000), then the server's close ends the exchange.
    this.deadlineMs = nowMs + this.shared.timeoutMs;
    this.closeWith(CLOSE_NORMAL);
  }

  /** A storm's think time is over: its next message, unless the connection closed or the run stops. */
  #thought(): void {
    if (this.sock !== null && !this.shared.stopping) this.#begin(-1, -1);
  }

  countUnfinished(nowMs: number): void {
    this.#ex.countUnfinished(nowMs, this.shared.stopping);
  }
}
