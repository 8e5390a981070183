/**
 * @module
 * One HTTP/2 connection of the load generator (RFC 9113), every frame handled in the turn its bytes arrive.
 * HOT PATH: frames read in place, output written once per turn; peer errors are counted, never thrown.
 */
import type { ErrorKind } from "../../../results/mod.ts";
import {
  CLIENT_PREFACE,
  DEFAULT_WINDOW_BYTES,
  errorCodeName,
  FRAME_HEADER_BYTES,
  GOAWAY_BYTES,
  PeerSettings,
  SETTINGS_ENABLE_PUSH,
  SETTINGS_INITIAL_WINDOW_SIZE,
  SETTINGS_MAX_HEADER_LIST_SIZE,
  settingsFrameBytes,
  WINDOW_UPDATE_BYTES,
  writeGoaway,
  writeSettings,
  writeWindowUpdate,
} from "../../../http2/frames.ts";
import { HpackDecoder } from "../../../http2/hpack/decoder.ts";
import type { ConnectionShared } from "../load_connection.ts";
import { classifyError, errorMessage } from "../exchange_errors.ts";
import type { H2Core, H2Run } from "./stream.ts";
import { H2Output, type H2OutputOwner, MAX_OUT_BYTES } from "./output.ts";
import { StreamTable } from "./stream_table.ts";
import { HeaderBlocks } from "./header_blocks.ts";
import { ControlFrames } from "./control_frames.ts";
import { FrameReader, MAX_FRAME_IN } from "./frame_reader.ts";
import { Dialer, hangUp } from "../transport/dial.ts";
import { type InlineConn, inlineOf, type InlineReader, type TransportConn } from "../transport/transport.ts";
import { PromiseInline } from "../transport/promise_inline.ts";
import { copyBytes } from "../../../system/copy_bytes.ts";
import { waitUntil } from "../../load/clock.ts";

/** Input buffer: a few frames of the largest size we allow (16 KiB); a partial frame moves to the front. */
const IN_BYTES = 64 * 1024;
/** The largest partial frame a read can leave: a header and the most payload we allow. */
const PARTIAL_MAX_BYTES = FRAME_HEADER_BYTES + MAX_FRAME_IN;
/** A connection's first partial-frame store; it doubles up to PARTIAL_MAX_BYTES as frames need. */
const PARTIAL_FIRST_BYTES = 1024;
const EMPTY = new Uint8Array(0);
/** Every inline connection's input (frames keep no view of it); promise reads keep their own. */
const SHARED_IN = new Uint8Array(IN_BYTES);

/** A call grpc-go fails at once costs it 10 to 30 us of a core: this isolate's take 10 us each in turn. */
const FAIL_FAST_MS = 0.01;
let failFastAtMs = 0;

/** grpc-go's wait before redial `n` (0: the first): 1 s, then x1.6 a time (120 s at most), 20% jitter. */
function grpcBackoffMs(n: number): number {
  return n === 0 ? 1000 : Math.min(1000 * 1.6 ** n, 120_000) * (0.8 + 0.4 * Math.random());
}

export class H2Connection implements H2Core, H2OutputOwner, InlineReader {
  #sock: InlineConn | null = null;
  /** Reads land in the worker's shared buffer (epoll, io_uring), not in `#own` (Deno's sockets). */
  #sharedIn = false;
  #opening: Promise<boolean> | null = null;
  /** gRPC: dials failed in a row, and when the next may start. */
  #failedDials = 0;
  #redialMs = 0;
  readonly #dialer: Dialer;

  // Input. Shared: `#own` holds the `#inEnd` bytes of the partial frame the last read ended in (EMPTY
  // when none). Deno's sockets: `#own` is the input buffer, its first `#inEnd` bytes a partial frame.
  #own: Uint8Array = EMPTY;
  #inEnd = 0;
  decoder = new HpackDecoder();
  peer = new PeerSettings();
  gotSettings = false;
  goawayCode = -1;
  /** Where a GOAWAY sends new and refused requests, and the next GOAWAY back: a lane holds two at most. */
  partner: H2Connection | null = null;
  /** A GOAWAY handed this connection's requests to `partner`; it drains, then closes. */
  handedOver = false;

  /** Frames to send, written once per batch; the connection is the output's owner (no closures). */
  readonly output: H2Output = new H2Output(this);

  readonly streams: StreamTable;
  readonly #heads: HeaderBlocks;
  readonly #frames: FrameReader;

  /** `partnerOf`: the connection this one is the partner of (its first connect is a reconnect). */
  constructor(
    readonly id: number,
    readonly shared: ConnectionShared,
    readonly run: H2Run,
    partnerOf: H2Connection | null = null,
  ) {
    this.#dialer = new Dialer(shared, null, partnerOf !== null);
    this.#dialer.quiet = run.answer !== undefined;
    this.partner = partnerOf;
    this.streams = new StreamTable(this);
    this.#heads = new HeaderBlocks(this, this.streams);
    this.#frames = new FrameReader(this, this.streams, this.#heads, new ControlFrames(this, this.streams));
  }

  socket(): InlineConn | null {
    return this.#sock;
  }
  writeFailed(err: unknown): void {
    this.#socketFailed(err, "write");
  }
  overflowed(): void {
    this.fail(
      "h2-protocol",
      `more than ${MAX_OUT_BYTES} bytes queued: the server stopped reading`,
      performance.now(),
    );
  }

  /** Inline read: frames handled; the write waits for `onDrained` (the pump's end of this socket's reads). */
  onRead(n: number | null): boolean {
    const sock = this.#sock!;
    this.#batch(n, sock.nowMs());
    if (this.#sock === sock) this.#arm(sock);
    return this.#takeSettled();
  }
  onReadError(err: unknown): boolean {
    this.#socketFailed(err, "read");
    return this.#takeSettled();
  }
  /** InlineReader: the socket is drained; one write for all frames queued since (one TLS record). */
  onDrained(): void {
    this.output.flush();
  }

  get isOpen(): boolean {
    return this.#sock !== null;
  }

  get maxOpenStreams(): number {
    return this.streams.maxOpenStreams;
  }

  /**
   * Dials (once for every slot that asks at once); false when the connect failed. A gRPC connection whose
   * dial failed redials after grpc-go's backoff, and false comes at once meanwhile (`failFast`).
   */
  open(endpoint = -1): Promise<boolean> {
    if (this.#sock !== null) return Promise.resolve(true);
    if (this.#failedDials === 0) return this.#dial(endpoint);
    if (performance.now() >= this.#redialMs) this.#dial(endpoint);
    return Promise.resolve(false);
  }

  #dial(endpoint: number): Promise<boolean> {
    const startMs = performance.now();
    if (this.#opening === null) this.#dialer.endpoint = endpoint;
    return this.#opening ??= this.#dialer.dial().then((sock) => {
      if (sock === null) {
        if (this.run.answer !== undefined) this.#redialMs = startMs + grpcBackoffMs(this.#failedDials++);
        return false;
      }
      this.#failedDials = 0;
      this.#start(sock);
      return true;
    }).finally(() => this.#opening = null);
  }

  /** A call on a down gRPC connection, begun at `startMs`, fails at once (not wait-for-ready), timed. */
  failFast(endpoint: number, startMs: number): Promise<number> {
    if (this.#failedDials === 0 || this.shared.stopping) return Promise.resolve(0);
    const { failedKind, failedMessage } = this.#dialer, nowMs = performance.now();
    this.shared.recorder.recordError(nowMs, failedKind, failedMessage, endpoint);
    this.shared.log?.unanswered(startMs, startMs, nowMs, this.id);
    failFastAtMs = Math.max(nowMs, failFastAtMs) + FAIL_FAST_MS;
    return waitUntil(failFastAtMs).then(() => 1);
  }

  #start(sock: TransportConn): void {
    const inline = inlineOf(sock);
    this.#sock = inline ?? new PromiseInline(sock);
    this.#sharedIn = inline !== null;
    this.#inEnd = 0;
    this.#own = this.#sharedIn ? EMPTY : this.#own.length > 0 ? this.#own : new Uint8Array(IN_BYTES);
    this.decoder = new HpackDecoder(4096, this.shared.maxHeaderBytes);
    this.peer = new PeerSettings();
    this.gotSettings = false;
    this.goawayCode = -1;
    this.#heads.reset();
    this.#frames.reset();
    this.output.reset();
    this.streams.reset();
    const window = this.run.windowBytes;
    const settings: [number, number][] = [
      [SETTINGS_ENABLE_PUSH, 0],
      [SETTINGS_INITIAL_WINDOW_SIZE, window],
      [SETTINGS_MAX_HEADER_LIST_SIZE, this.shared.maxHeaderBytes],
    ];
    const at = this.output.reserve(
      CLIENT_PREFACE.length + settingsFrameBytes(settings.length) + WINDOW_UPDATE_BYTES,
    );
    const out = this.output.bytes;
    out.set(CLIENT_PREFACE, at);
    let end = writeSettings(out, at + CLIENT_PREFACE.length, settings);
    if (window > DEFAULT_WINDOW_BYTES) end = writeWindowUpdate(out, end, 0, window - DEFAULT_WINDOW_BYTES);
    this.output.wrote(end);
    this.output.flush();
    this.#arm(this.#sock);
  }

  #arm(sock: InlineConn): void {
    const input = this.#sharedIn ? SHARED_IN : this.#own;
    sock.armRead(this.#inEnd === 0 ? input : input.subarray(this.#inEnd), this);
  }

  #takeSettled(): boolean {
    const streams = this.streams;
    const settled = streams.settled;
    streams.settled = false;
    return settled;
  }

  /** Bytes read (null: end of stream): frames handled; what they queued is written by the caller. */
  #batch(n: number | null, nowMs: number): void {
    if (n === null) {
      const early = this.gotSettings ? "" : " before its SETTINGS";
      this.fail("closed-early", `the server closed the connection${early}${this.#afterGoaway()}`, nowMs);
      return;
    }
    this.shared.recorder.addBytesRead(nowMs, n);
    const shared = this.#sharedIn;
    const input = shared ? SHARED_IN : this.#own;
    if (shared && this.#inEnd > 0) copyBytes(input, 0, this.#own, 0, this.#inEnd);
    const end = this.#inEnd + n;
    this.output.inBatch = true;
    try {
      const used = this.#frames.consume(input, end, nowMs);
      if (this.#sock === null) return;
      this.#inEnd = end - used;
      if (shared) this.#keepPartial(input, used);
      else if (used > 0 && used < end) input.copyWithin(0, used, end);
    } finally {
      this.output.inBatch = false;
    }
  }

  /** Keeps the `#inEnd` bytes at `input[from..]` (a partial frame) in `#own`; none: `#own` is let go. */
  #keepPartial(input: Uint8Array, from: number): void {
    const left = this.#inEnd;
    if (left === 0) {
      this.#own = EMPTY;
      return;
    }
    if (this.#own.length < left) {
      const grown = Math.min(PARTIAL_MAX_BYTES, Math.max(PARTIAL_FIRST_BYTES, 2 * this.#own.length));
      this.#own = new Uint8Array(Math.max(left, grown));
    }
    copyBytes(this.#own, 0, input, from, left);
  }

  protocolError(errorCode: number, message: string, nowMs: number): void {
    if (this.#sock === null) return;
    const at = this.output.reserve(GOAWAY_BYTES);
    this.output.wrote(writeGoaway(this.output.bytes, at, 0, errorCode));
    this.output.flush();
    this.fail("h2-protocol", message, nowMs);
  }

  frameError(code: number, message: string, nowMs: number): boolean {
    this.protocolError(code, `${errorCodeName(code)}: ${message}`, nowMs);
    return false;
  }

  #socketFailed(err: unknown, phase: "read" | "write"): void {
    if (this.#sock === null) return;
    this.fail(classifyError(err, phase), `${errorMessage(err)}${this.#afterGoaway()}`, performance.now());
  }

  /** The peer's GOAWAY code, for the end of a connection it announced (its reason kept in the message). */
  #afterGoaway(): string {
    return this.goawayCode < 0 ? "" : ` after GOAWAY ${errorCodeName(this.goawayCode)}`;
  }

  /** Closes the socket; streams in flight count under `kind`, except ones refused unprocessed. */
  fail(kind: ErrorKind, message: string, nowMs: number): void {
    const wasOpen = this.#close();
    const streams = this.streams;
    const inFlight = [...streams.byId.values()];
    const waiting = streams.pending.splice(0);
    streams.byId.clear();
    streams.blocked.length = 0;
    for (const stream of inFlight) streams.endStream(stream, nowMs, kind, message);
    const stopping = this.shared.stopping;
    const counting = wasOpen && !stopping;
    let counted = inFlight.length;
    for (const stream of waiting) {
      if (stream.refused && !stopping && kind !== "connect") streams.pending.push(stream);
      else {
        if (counting) {
          this.shared.recorder.recordError(nowMs, kind, message, stream.endpoint);
          this.shared.log?.unanswered(stream.intendedMs, stream.intendedMs, nowMs, this.id);
          counted++;
        }
        stream.ended(nowMs, counting);
      }
    }
    if (counted === 0 && wasOpen && kind === "h2-protocol" && !stopping) {
      this.shared.recorder.recordError(nowMs, kind, message);
    }
    if (streams.pending.length > 0) this.reconnect();
  }

  reconnect(): void {
    this.#close();
    if (this.handedOver) this.#passOn();
    else this.wake();
  }

  /** A GOAWAY's processed streams end here (RFC 9113 6.8); refused and new ones go to the partner. */
  handOver(): void {
    if (!this.handedOver) {
      const partner = this.partner ??= new H2Connection(this.id, this.shared, this.run, this);
      if (partner.#sock !== null || partner.#opening !== null) return;
      this.handedOver = true;
      partner.handedOver = false;
    }
    this.#passOn();
  }

  #passOn(): void {
    const waiting = this.streams.pending;
    if (waiting.length === 0) return;
    const partner = this.partner!;
    for (const stream of waiting) {
      stream.rehome();
      partner.streams.pending.push(stream);
    }
    waiting.length = 0;
    partner.wake();
  }

  /** Opens the connection for the streams waiting, unless it is open or opening; open: they start. */
  wake(): void {
    if (this.#sock !== null) return this.streams.startPending();
    if (this.#opening !== null || this.streams.pending.length === 0 || this.shared.stopping) return;
    this.open().then((ok) => {
      if (ok) this.streams.startPending();
      else this.fail("connect", "", performance.now());
    });
  }

  #close(): boolean {
    const sock = this.#sock;
    if (sock === null) return false;
    this.#sock = null;
    if (this.#sharedIn) this.#own = EMPTY;
    this.output.reset();
    hangUp(this.shared, sock);
    return true;
  }

  /** Our own close (`H2Slot.release`): the next dial is a new connection, not a reconnect. */
  forgetOpened(): void {
    this.#dialer.forgetOpened();
  }

  close(): void {
    this.#dialer.abort();
    this.fail("closed-early", "the connection was closed", performance.now());
  }
}
