/**
 * @module
 * A flow session's own WebSocket (its `ws` steps), its reads kept armed in a buffer of its own. Unasked
 * messages wait in a bounded queue; a step takes the first match, those passed over are unsolicited.
 */
import { MessageTemplate } from "../../../ws/frame_encoder.ts";
import { CLOSE_ABNORMAL, CLOSE_NO_STATUS, OP_TEXT } from "../../../ws/opcodes.ts";
import type { ErrorKind } from "../../../results/mod.ts";
import { classifyError, errorMessage } from "../exchange_errors.ts";
import type { ConnectionShared } from "../load_connection.ts";
import { Dialer } from "../transport/dial.ts";
import { handshake, type HandshakeOffer } from "./handshake_io.ts";
import { WS_READ_BUFFER_BYTES } from "./run.ts";
import { WsSocket, type WsSocketRun } from "./socket.ts";
import { timedWait } from "../../../system/sleep.ts";

/** A message received: its text (a binary one decoded as UTF-8) and when it arrived. */
export interface ReceivedMessage {
  text: string;
  atMs: number;
}

/** Most bytes, and most messages, kept for later steps; past either the oldest are let go. */
const QUEUE_BYTES = 4 * 1024 * 1024;
const QUEUE_MESSAGES = 1_024;

/** The messages received before a step asked, bounded in bytes and count, the oldest let go first. */
class SessionQueue {
  readonly #messages: ReceivedMessage[] = [];
  #bytes = 0;

  /** `passed` is told of each message no step took (its arrival time). */
  constructor(readonly passed: (atMs: number) => void) {}

  push(message: ReceivedMessage): void {
    const messages = this.#messages;
    messages.push(message);
    this.#bytes += message.text.length;
    while ((this.#bytes > QUEUE_BYTES && messages.length > 1) || messages.length > QUEUE_MESSAGES) {
      const oldest = messages.shift()!;
      this.#bytes -= oldest.text.length;
      this.passed(oldest.atMs);
    }
  }

  /** The first message kept that `accepts` takes, those before it passed over; null when none does. */
  take(accepts: (message: ReceivedMessage) => boolean): ReceivedMessage | null {
    while (this.#messages.length > 0) {
      const message = this.#messages.shift()!;
      this.#bytes -= message.text.length;
      if (accepts(message)) return message;
      this.passed(message.atMs);
    }
    return null;
  }

  clear(): void {
    for (const m of this.#messages) this.passed(m.atMs);
    this.#messages.length = 0;
    this.#bytes = 0;
  }
}

/** What a wait ends with: the message, or why none came (counted, except `stopped`). */
type WaitOutcome = ReceivedMessage | "timeout" | "closed" | "stopped";

interface Waiter {
  accepts(message: ReceivedMessage): boolean;
  endpoint: number;
  resolve(outcome: WaitOutcome): void;
}

export class WsSessionSocket extends WsSocket {
  readonly #buf = new Uint8Array(WS_READ_BUFFER_BYTES);
  readonly #decoder = new TextDecoder();
  readonly #queue = new SessionQueue((atMs) => this.#unsolicited(atMs));
  #waiter: Waiter | null = null;
  /** Resolves a close step once the server's close (or the end of the stream) came. */
  #closed: (() => void) | null = null;
  /** A frame fault while no step waited: counted once, by the next step that needs the socket or the end. */
  #unclaimed: { kind: ErrorKind; message: string } | null = null;
  /** Wakes a send waiting for the write before it to end (or for the socket to go). */
  #idle: (() => void) | null = null;

  constructor(shared: ConnectionShared, run: WsSocketRun) {
    super(shared, run);
    this.writer.onIdle = () => this.#idle?.();
  }

  /** Dials and runs the handshake (`offer`); false when either failed (counted under `endpoint`). */
  async open(offer: HandshakeOffer, endpoint: number): Promise<boolean> {
    const dialed = await new Dialer(this.shared, null).dial();
    if (dialed === null) return false;
    const sock = this.takeSocket(dialed);
    const watch = {
      deadlineMs: Infinity,
      timedOut: false,
      fault: (nowMs: number, kind: ErrorKind, message: string) => this.fault(nowMs, kind, message, endpoint),
    };
    // No watchdog watches a session's socket: a handshake past the timeout is cut here.
    const timer = setTimeout(() => {
      watch.timedOut = true;
      this.closeSocket();
    }, this.shared.timeoutMs);
    const done = await handshake(sock, this.#buf, offer, this.shared, watch).finally(() =>
      clearTimeout(timer)
    );
    if (done === null || this.sock === null) {
      this.closeSocket();
      return false;
    }
    // permessage-deflate agreed: the parser inflates, and each send (filled per send) is compressed.
    this.parser.deflate = done.deflate;
    // Frames that came with the answer first; then reads stay armed until the socket is gone.
    if (done.extraBytes === 0 || this.#feed(done.extraBytes, performance.now())) {
      sock.armRead(this.#buf, this);
    }
    return true;
  }

  /**
   * Resolves once the write under way has ended, so a session's socket holds at most one message waiting;
   * a server that takes none within `timeoutMs` fails the send (`timeout`, under `endpoint`).
   */
  writable(
    timeoutMs: number,
    endpoint: number,
    signal: AbortSignal,
  ): Promise<"ready" | "failed" | "stopped"> {
    if (!this.writer.busy || this.sock === null) return Promise.resolve("ready");
    const late = (): "ready" | "failed" => {
      const message = `the server took no more of the last message within ${timeoutMs} ms`;
      this.fault(performance.now(), "timeout", message, endpoint);
      return "failed";
    };
    // Also when the socket goes: the send then counts why.
    const arm = (end: (outcome: "ready" | "failed") => void) => this.#idle = () => end("ready");
    return timedWait(timeoutMs, signal, late, arm, () => this.#idle = null);
  }

  send(payload: Uint8Array, endpoint: number): boolean {
    const nowMs = performance.now();
    if (this.sock === null || this.closeSent) {
      this.#claim(endpoint, "a send");
      return false;
    }
    const bytes = new MessageTemplate(OP_TEXT, payload, 0, this.parser.deflate).mask(this.run.keys);
    this.run.stats.sent(nowMs, payload.length);
    this.shared.recorder.addBytesWritten(nowMs, bytes.length, endpoint);
    this.writer.send(bytes);
    return true;
  }

  /** The first message, queued or to come, that `accepts` takes; those passed over are unsolicited. */
  wait(
    accepts: (message: ReceivedMessage) => boolean,
    timeoutMs: number,
    endpoint: number,
    signal: AbortSignal,
  ): Promise<WaitOutcome> {
    const queued = this.#queue.take(accepts);
    if (queued !== null) return Promise.resolve(queued);
    if (this.sock === null) {
      this.#claim(endpoint, "its message came");
      return Promise.resolve("closed");
    }
    const late = () => {
      this.fault(performance.now(), "timeout", `no matching message within ${timeoutMs} ms`, endpoint);
      return "timeout" as const;
    };
    const arm = (end: (outcome: WaitOutcome) => void) => this.#waiter = { accepts, endpoint, resolve: end };
    return timedWait<WaitOutcome>(timeoutMs, signal, late, arm, () => this.#waiter = null);
  }

  /** Sends a close frame and waits for the server's, then closes; no answer in `timeoutMs` is a timeout. */
  async close(code: number, timeoutMs: number, signal: AbortSignal): Promise<void> {
    this.#claim(-1);
    if (this.sock === null) return;
    // "late": no close frame in time; "stopped": the run's end, which counts nothing.
    const arm = (end: (outcome: "answered") => void) => this.#closed = () => end("answered");
    const answered = timedWait(timeoutMs, signal, () => "late" as const, arm, () => this.#closed = null);
    this.closeWith(code, performance.now());
    const ended = await answered;
    if (ended === "late" && this.sock !== null) {
      this.fault(performance.now(), "timeout", `no close frame from the server within ${timeoutMs} ms`, -1);
    }
    this.closeSocket();
    this.#queue.clear();
  }

  release(): void {
    this.#claim(-1);
    this.closeWith(1000, performance.now());
    this.closeSocket();
    this.#queue.clear();
  }

  /** InlineReader: parses the read and arms the next one; true, so a step it answered goes on first. */
  onRead(n: number | null): boolean {
    const nowMs = performance.now();
    if (n === null) {
      if (!this.closeSent) this.run.stats.closeCode(nowMs, CLOSE_ABNORMAL);
      this.#lost("ws-closed", "connection closed without a close frame (1006)");
      return true;
    }
    this.shared.recorder.addBytesRead(nowMs, n, this.#waiter?.endpoint ?? -1);
    if (this.#feed(n, nowMs)) this.sock!.armRead(this.#buf, this);
    return true;
  }

  onReadError(err: unknown): boolean {
    this.#lost(classifyError(err, "read"), errorMessage(err));
    return true;
  }

  #feed(n: number, nowMs: number): boolean {
    this.nowMs = nowMs;
    if (!this.parser.feed(this.#buf, 0, n)) {
      const kind = this.frameFault();
      const message = this.parser.faultMessage;
      if (this.#waiter === null) this.#unclaimed = { kind, message };
      else this.fault(nowMs, kind, message, this.#waiter.endpoint);
      this.#lost(null, "");
      return false;
    }
    return this.sock !== null;
  }

  onMessage(_text: boolean, buf: Uint8Array, start: number, end: number): void {
    const atMs = this.nowMs;
    this.run.stats.received(atMs, end - start);
    const message = { text: this.#decoder.decode(buf.subarray(start, end)), atMs };
    const waiter = this.#waiter;
    if (waiter !== null) {
      if (waiter.accepts(message)) waiter.resolve(message);
      else this.#unsolicited(atMs);
      return;
    }
    this.#queue.push(message);
  }

  onPong(): void {}

  onClose(code: number): void {
    this.run.stats.closeCode(this.nowMs, code);
    // Answer the server's close with its code (RFC 6455 5.5.1), unless ours went first.
    this.closeWith(code === CLOSE_NO_STATUS ? 1000 : code);
    this.#lost("ws-closed", "server closed with a message awaited");
  }

  #unsolicited(atMs: number): void {
    if (this.run.stats.counts(atMs)) this.run.stats.unsolicited++;
  }

  /** The socket is gone: a step waiting for a message ends as `closed` (counted as `kind`, if given). */
  #lost(kind: ErrorKind | null, message: string): void {
    const waiter = this.#waiter;
    if (waiter !== null) {
      if (kind !== null) this.fault(performance.now(), kind, message, waiter.endpoint);
      waiter.resolve("closed");
    }
    this.#closed?.();
    this.#closed = null;
    this.closeSocket();
  }

  /** Counts the unclaimed fault under `endpoint` (-1: the run's); else `ws-closed` for a step (`before`). */
  #claim(endpoint: number, before?: string): void {
    const fault = this.#unclaimed;
    this.#unclaimed = null;
    const nowMs = performance.now();
    if (fault !== null) this.fault(nowMs, fault.kind, fault.message, endpoint);
    else if (before) this.fault(nowMs, "ws-closed", `the WebSocket closed before ${before}`, endpoint);
  }

  writeFailed(): void {
    this.closeSocket();
  }

  protected override closeSocket(): void {
    if (this.sock === null) return;
    super.closeSocket();
    this.#idle?.();
  }
}
