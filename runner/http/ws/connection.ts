/**
 * @module
 * One WebSocket connection of the load generator, driven by the same executors, watchdog and graceful
 * stop as HTTP (it is a `LoadConnection`): `open` dials through the run's transport (epoll or Deno's
 * sockets; wss: through the same TLS path and options as https:) and runs the handshake; an
 * `exchange` sends one message and waits for its answer (the match rule), its round trip measured
 * from the intended send (open models: coordinated-omission corrected) and from the actual one. A
 * storm's exchange is a whole connection's life: its messages one after another (each timed from its
 * own send: connect and handshake are measured apart), then the close handshake (1000). Hold's
 * exchange is an idle wait, a ping and its pong. Between exchanges an inline connection keeps its read
 * armed, so a broadcast is timed (fan-out) when it arrives; on Deno's sockets it is read at the next send.
 *
 * HOT PATH: the message's frame is masked in place (ws/frame_encoder.ts), reads go into one reused
 * buffer and the frame parser hands whole messages over as views of it; on an inline transport
 * (epoll) a closed loop's next send is written from the read callback, with no promise per message.
 * Failures are counted by kind, never thrown: a frame fault (`ws-protocol`, `ws-too-big`,
 * `ws-bad-utf8`: answered with the matching close code), a close or a lost connection with a message
 * unanswered (`ws-closed`), a timeout (the watchdog; a server that never answers our close is cut the
 * same way), a failed read or write. Writes go through frame_writer.ts, in order; the close handshake
 * (close_handshake.ts) ends with the server's TCP close, which the exchange waits for.
 */
import type { ErrorKind } from "../../../results/mod.ts";
import { FrameParser, type FrameSink } from "../../../ws/frame_parser.ts";
import { pingFrame, pongFrame } from "../../../ws/frame_encoder.ts";
import { CLOSE_ABNORMAL, CLOSE_GOING_AWAY, CLOSE_NO_STATUS, CLOSE_NORMAL } from "../../../ws/opcodes.ts";
import { classifyError, errorMessage } from "../exchange_errors.ts";
import type { ConnectionShared, LoadConnection, NextExchange } from "../load_connection.ts";
import { Dialer, hangUp } from "../transport/dial.ts";
import { type InlineConn, inlineOf, type InlineReader, type TransportConn } from "../transport/transport.ts";
import { readLoop } from "./read_loop.ts";
import { AnswerMatch, fanoutUs } from "./answer_match.ts";
import { handshake } from "./handshake_io.ts";
import { handshakeRequest, newKey } from "../../../ws/handshake.ts";
import { FrameWriter } from "./frame_writer.ts";
import { CloseHandshake, FAULT_CODES, FAULT_KINDS, readUntilServerCloses } from "./close_handshake.ts";
import type { WsRun } from "./run.ts";

const READ_BUFFER_BYTES = 32 * 1024;
const EMPTY = new Uint8Array(0);

export class WsConnection implements LoadConnection, FrameSink {
  readonly maxDepth = 1;
  deadlineMs = Infinity;
  timedOut = false;
  lastEventMs = 0;
  #sock: TransportConn | null = null;
  #inline: InlineConn | null = null;
  /** An inline read is armed (its reader not yet called). */
  #armed = false;
  readonly #dialer: Dialer;
  readonly #buf = new Uint8Array(READ_BUFFER_BYTES);
  #parser: FrameParser;
  readonly #match: AnswerMatch;
  #messageIndex = 0;
  // The exchange in progress.
  #active = false;
  #intendedMs = 0;
  #sentMs = 0;
  #answered = 0;
  /** A message (or ping) sent and not answered: counted in the recorder's `inFlight`. */
  #outstanding = false;
  /** Messages of this connection's storm sent so far. */
  #stormSent = 0;
  /** The exchange is over (answered, failed, or its close handshake done); `consume` returns it. */
  #over = false;
  #nowMs = 0;
  readonly #writer = new FrameWriter(() => this.abort());
  readonly #close: CloseHandshake;
  // Inline: resolves the exchange (or the chain of them); `#next` grants the next.
  #settle: ((n: number) => void) | null = null;
  #next: NextExchange | null = null;
  // Hold's idle wait, ended early by `abort`.
  #idleTimer: ReturnType<typeof setTimeout> | undefined = undefined;
  #idleEnd: (() => void) | null = null;
  readonly #reader: InlineReader = {
    onRead: (n) => this.#inlineRead(n),
    onReadError: (err) => {
      this.#armed = false;
      this.#fail(err);
      return this.#inlineEnd();
    },
  };

  constructor(readonly id: number, readonly shared: ConnectionShared, readonly run: WsRun) {
    this.#dialer = new Dialer(shared, this);
    this.#parser = new FrameParser(this, run.maxMessageBytes);
    this.#match = new AnswerMatch(run.match);
    this.#close = new CloseHandshake(this.#writer, run);
  }

  get isOpen(): boolean {
    return this.#sock !== null;
  }

  /** The dialer's socket, taken in the turn it connected. */
  adopt(sock: TransportConn): void {
    this.#sock = sock;
    this.#inline = inlineOf(sock);
    this.#writer.reset(sock, this.#inline);
  }

  /** Dials, then runs the handshake; false when either failed (counted). */
  async open(): Promise<boolean> {
    const sock = await this.#dialer.dial();
    if (sock === null) return false;
    this.#parser = new FrameParser(this, this.run.maxMessageBytes);
    this.#close.reset();
    this.#stormSent = 0;
    const key = newKey();
    const run = this.run;
    const request = handshakeRequest(run.url, key, { protocols: run.protocols, headers: run.headers });
    const offer = { request, key, protocols: run.protocols, stats: run.stats };
    const extra = await handshake(sock, this.#buf, offer, this.shared, this);
    if (extra < 0 || this.#sock === null) {
      this.#closeSocket();
      return false;
    }
    // Frames that came with the answer (a greeting): read now, before any send (unsolicited). A fault or
    // the server's close is handled there; what `#consume` says of an exchange is of the last one, not this.
    if (extra > 0) this.#consume(extra, performance.now());
    if (this.#close.received && this.#sock !== null) {
      await readUntilServerCloses(this.#sock, this.#buf, () => this.#sock === sock);
      this.#closeSocket();
      this.deadlineMs = Infinity;
    }
    this.#listen();
    return this.#sock !== null;
  }

  /** A failure of the handshake or a frame fault, counted unless the run is stopping. */
  fault(nowMs: number, kind: ErrorKind, message: string): void {
    if (!this.shared.stopping) this.shared.recorder.recordError(nowMs, kind, message);
  }

  /**
   * Sends one message (hold: pings) and waits for its answer; resolves with the answers counted
   * (storm: all the connection's). `next` chains further sends from the read callback on an inline
   * transport, as for HTTP/1.1.
   */
  async exchange(
    intendedMs: number,
    _depth = 1,
    _request: unknown = null,
    next: NextExchange | null = null,
  ): Promise<number> {
    if (this.#sock === null && !(await this.open())) return 0;
    if (this.run.pingIntervalMs > 0) {
      await new Promise<void>((resolve) => this.#pause(this.run.pingIntervalMs, resolve));
      if (this.#sock === null) return 0;
      next = null;
    }
    if (this.#inline !== null) {
      return new Promise((resolve) => {
        this.#settle = resolve;
        this.#next = next;
        this.#begin(intendedMs, -1);
      });
    }
    const sock = this.#sock!;
    this.#begin(intendedMs, -1);
    await readLoop(sock, this.#buf, (n) => this.#consume(n, performance.now()), (err) => this.#fail(err));
    return this.#end();
  }

  /**
   * Waits `ms` (hold's idle wait, a storm's think time; no deadline runs meanwhile), then `then`;
   * `abort` ends the wait early, calling `then` at once.
   */
  #pause(ms: number, then: () => void): void {
    this.deadlineMs = Infinity;
    this.#idleEnd = () => {
      this.#idleEnd = null;
      clearTimeout(this.#idleTimer);
      then();
    };
    this.#idleTimer = setTimeout(this.#idleEnd, ms);
  }

  /** Starts a send: the next message (or a ping), masked and written; the read armed (inline). */
  #begin(intendedMs: number, sentMs: number): void {
    const run = this.run;
    const stats = run.stats;
    if (sentMs < 0) sentMs = performance.now();
    this.lastEventMs = sentMs;
    this.#intendedMs = intendedMs < 0 ? sentMs : intendedMs;
    this.#sentMs = sentMs;
    if (!this.#active) this.#answered = 0;
    this.#active = true;
    this.#over = false;
    this.deadlineMs = sentMs + this.shared.timeoutMs;
    this.timedOut = false;
    this.#writer.error = null;
    this.#match.reset();
    let bytes: Uint8Array;
    if (run.pingIntervalMs > 0) {
      bytes = pingFrame(EMPTY, run.keys);
      if (stats.counts(sentMs)) stats.pingsSent++;
    } else {
      const template = run.messages[this.#messageIndex];
      if (++this.#messageIndex === run.messages.length) this.#messageIndex = 0;
      bytes = template.mask(run.keys);
      if (stats.counts(sentMs)) {
        stats.messagesSent++;
        stats.payloadBytesSent += template.payloadBytes;
      }
    }
    this.shared.recorder.addBytesWritten(sentMs, bytes.length);
    this.shared.recorder.inFlight++;
    this.#outstanding = true;
    // Armed before the write, so a write that fails at once fails the armed read, as on Deno.Conn; a
    // storm's next send from inside a read finds it armed again by the read that called it.
    this.#arm();
    this.#writer.sendMessage(bytes);
  }

  /** Takes `n` bytes read (null: end of stream); true when the exchange is over. */
  #consume(n: number | null, nowMs: number): boolean {
    this.lastEventMs = this.#nowMs = nowMs;
    if (n === null) {
      if (!this.#close.received) {
        this.run.stats.closeCode(nowMs, CLOSE_ABNORMAL);
        if (this.#waiting()) this.fault(nowMs, "ws-closed", "connection closed without a close frame (1006)");
      }
      this.#closeSocket();
      return true;
    }
    this.shared.recorder.addBytesRead(nowMs, n);
    if (!this.#parser.feed(this.#buf, 0, n)) {
      const fault = this.#parser.fault!;
      this.fault(nowMs, FAULT_KINDS[fault], this.#parser.faultMessage);
      this.#closeWith(FAULT_CODES[fault]);
      this.#closeSocket();
      return true;
    }
    // After the server's close, the exchange ends with its TCP close (below: n === null), not before.
    return this.#sock === null || (this.#over && !this.#close.received);
  }

  /** A send of this exchange still waits for its answer (not the close handshake after a storm). */
  #waiting(): boolean {
    return this.#active && !this.#over && !this.#close.sent;
  }

  /** A message from the server may answer the send: it waits, and was written whole (else none could). */
  #answerable(): boolean {
    return this.#waiting() && !this.#writer.writingMessage;
  }

  onMessage(_text: boolean, buf: Uint8Array, start: number, end: number): void {
    const nowMs = this.#nowMs;
    const stats = this.run.stats;
    const counted = stats.counts(nowMs);
    if (counted) {
      stats.messagesReceived++;
      stats.payloadBytesReceived += end - start;
    }
    if (this.#answerable() && this.run.pingIntervalMs === 0 && this.#match.answers(buf, start, end)) {
      this.#answer(nowMs, this.run.messagesPerConnection > 0 ? this.#sentMs : this.#intendedMs);
      return;
    }
    if (!counted) return;
    stats.unsolicited++;
    const fanout = fanoutUs(buf, start, end, performance.timeOrigin + nowMs);
    if (fanout >= 0) stats.fanout(fanout);
  }

  onPing(buf: Uint8Array, start: number, end: number): void {
    this.#writer.sendPong(pongFrame(buf.slice(start, end), this.run.keys));
  }

  onPong(): void {
    const nowMs = this.#nowMs;
    if (this.run.stats.counts(nowMs)) this.run.stats.pongsReceived++;
    if (this.#answerable() && this.run.pingIntervalMs > 0) this.#answer(nowMs, this.#sentMs);
  }

  onClose(code: number): void {
    const nowMs = this.#nowMs;
    this.#close.received = true;
    this.run.stats.closeCode(nowMs, code);
    if (this.#waiting()) this.fault(nowMs, "ws-closed", "server closed with a message unanswered");
    // Answer the server's close with its code (RFC 6455 5.5.1), unless ours went first; then wait for
    // the server to close the TCP connection first (7.1.1: the TIME_WAIT is the server's, not a storm's
    // ports'), at most a timeout.
    this.#closeWith(code === CLOSE_NO_STATUS ? 0 : code);
    this.#over = true;
    this.deadlineMs = nowMs + this.shared.timeoutMs;
  }

  /** The message (or ping) answered: recorded; a storm sends its next one, or closes after its last. */
  #answer(nowMs: number, fromMs: number): void {
    this.shared.recorder.recordMessage(nowMs, (nowMs - fromMs) * 1000, (nowMs - this.#sentMs) * 1000);
    this.shared.recorder.inFlight--;
    this.#outstanding = false;
    this.#answered++;
    const storm = this.run.messagesPerConnection;
    if (storm === 0) {
      this.#over = true;
      return;
    }
    if (++this.#stormSent < storm && !this.shared.stopping) {
      const thinkMs = this.run.thinkAfterMs[this.#stormSent - 1] ?? 0;
      if (thinkMs > 0) {
        this.#pause(thinkMs, () => this.#sock !== null && !this.shared.stopping && this.#begin(-1, -1));
      } else this.#begin(-1, nowMs);
      return;
    }
    // The storm's last answer: our close (1000), then the server's close ends the exchange.
    this.deadlineMs = nowMs + this.shared.timeoutMs;
    this.#closeWith(CLOSE_NORMAL);
  }

  /** Sends a close frame with `code` (0: none) once per socket. */
  #closeWith(code: number): void {
    if (this.#sock !== null) this.#close.send(code, this.#nowMs);
  }

  /** A failed read: the watchdog's timeout, our failed write, or the peer's reset. */
  #fail(err: unknown): void {
    const nowMs = performance.now();
    const closing = this.#active && this.#close.sent && !this.#close.received;
    const waiting = this.#waiting();
    const timedOut = this.timedOut;
    this.abort();
    if (!waiting && !closing) return;
    if (timedOut) {
      const what = waiting ? "no answer" : "no close frame from the server";
      this.fault(nowMs, "timeout", `${what} within ${this.shared.timeoutMs} ms`);
    } else if (this.#writer.error !== null) {
      this.fault(nowMs, classifyError(this.#writer.error, "write"), errorMessage(this.#writer.error));
    } else this.fault(nowMs, classifyError(err, "read"), errorMessage(err));
  }

  /** Ends the exchange; the answers it counted. */
  #end(): number {
    this.#active = false;
    if (this.#outstanding) {
      this.#outstanding = false;
      this.shared.recorder.inFlight--;
    }
    this.#over = true;
    this.deadlineMs = Infinity;
    const answered = this.#answered;
    this.#answered = 0;
    if (this.run.messagesPerConnection > 0 && this.#sock !== null) {
      this.#closeSocket();
      this.#dialer.forgetOpened();
    }
    return answered;
  }

  /** Arms one inline read, unless one is armed already (a read is armed at most once at a time). */
  #arm(): void {
    if (this.#armed || this.#inline === null) return;
    this.#armed = true;
    this.#inline.armRead(this.#buf, this.#reader);
  }

  #inlineRead(n: number | null): boolean {
    this.#armed = false;
    const inline = this.#inline;
    if (!this.#active) {
      // Between exchanges: a broadcast is read as it arrives, so its fan-out is timed then, not at the
      // connection's next send (seconds later for a room member that sends once every few seconds).
      if (inline !== null) this.#consume(n, inline.nowMs());
      this.#listen();
      return false;
    }
    if (inline === null) return this.#inlineEnd();
    if (!this.#consume(n, inline.nowMs())) {
      this.#arm();
      return false;
    }
    return this.#inlineEnd();
  }

  /** Inline: the exchange ended; starts the chain's next send, or settles. True when it settled. */
  #inlineEnd(): boolean {
    const done = this.#end();
    const next = this.#next;
    if (next !== null && this.#inline !== null && next(1, this.lastEventMs) > 0) {
      this.#answered = done;
      this.#begin(-1, this.lastEventMs);
      return false;
    }
    const settle = this.#settle;
    this.#settle = this.#next = null;
    settle?.(done);
    this.#listen();
    return true;
  }

  /**
   * Inline: keeps a read armed on an open connection between its exchanges, so what the server sends
   * meanwhile (broadcasts, pings) is taken as it comes. Not for a storm, whose connection closes after
   * its last answer.
   */
  #listen(): void {
    if (!this.#active && this.run.messagesPerConnection === 0 && this.#sock !== null) this.#arm();
  }

  countUnfinished(nowMs: number): void {
    if (!this.#outstanding || !this.#active || this.#over) return;
    if (!this.shared.stopping) this.shared.recorder.unfinished(nowMs, 1);
    this.#over = true;
  }

  /** Closes now (timeout, the run's end): an open connection says so first (1001, going away). */
  abort(): void {
    this.#dialer.abort();
    this.#idleEnd?.();
    if (this.#sock !== null && this.shared.stopping && !this.timedOut) this.#closeWith(CLOSE_GOING_AWAY);
    this.#closeSocket();
  }

  /** A close of our own after a storm connection or a per-arrival session. */
  release(): void {
    this.abort();
    this.#dialer.forgetOpened();
  }

  #closeSocket(): void {
    const sock = this.#sock;
    if (sock === null) return;
    this.#sock = null;
    this.#inline = null;
    this.#armed = false;
    this.#writer.reset(null, null);
    hangUp(this.shared, sock);
  }
}
