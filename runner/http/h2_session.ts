/**
 * @module
 * One HTTP/2 connection of the load generator (RFC 9113), carrying up to `streams` requests at once.
 * The socket is any transport of transport.ts: with the inline contract (epoll) the pump hands read
 * bytes to `#consume` by callback, elsewhere one read loop does; either way every frame is handled in
 * the turn its bytes arrived, and a stream's end starts the closed loop's next request from there
 * (`H2Stream.ended`), so a chain of requests costs no promise. HOT PATH: frames are read in place from
 * one reused input buffer (http2/frames.ts reads the header fields at an offset, no object per
 * frame), responses are decoded by the connection's HPACK decoder (http2/hpack_decoder.ts) for their
 * status only, and requests are pre-encoded frames copied into one output buffer with their stream id
 * patched (h2_request.ts), written once per turn. Everything the peer does wrong is counted by kind
 * (`h2-protocol`, `h2-refused-stream`, `goaway`), never thrown; buffers are bounded (a header block
 * past `maxHeaderBytes` is an error, not growth). The connect is dial.ts's, the output buffer
 * h2_output.ts's; frames in are handled by the subclass of h2_frames_in.ts.
 */
import type { ErrorKind } from "../../results/mod.ts";
import {
  CANCEL,
  CLIENT_PREFACE,
  DATA,
  DEFAULT_WINDOW_BYTES,
  FLAG_END_STREAM,
  FRAME_HEADER_BYTES,
  GOAWAY_BYTES,
  MAX_STREAM_ID,
  PeerSettings,
  RST_STREAM_BYTES,
  SETTINGS_ENABLE_PUSH,
  SETTINGS_INITIAL_WINDOW_SIZE,
  SETTINGS_MAX_HEADER_LIST_SIZE,
  settingsFrameBytes,
  WINDOW_UPDATE_BYTES,
  writeFrameHeader,
  writeGoaway,
  writeRstStream,
  writeSettings,
  writeWindowUpdate,
} from "../../http2/frames.ts";
import { HpackDecoder } from "../../http2/hpack_decoder.ts";
import type { ConnectionShared } from "./load_connection.ts";
import { classifyError, errorMessage } from "./exchange_errors.ts";
import { type H2Request, writeHeadersFrames } from "./h2_request.ts";
import { H2Output, MAX_OUT_BYTES } from "./h2_output.ts";
import { Dialer } from "./dial.ts";
import { type InlineConn, inlineOf, type InlineReader, type TransportConn } from "./transport.ts";

/**
 * Input buffer per connection: room for a few frames of the largest size we allow (16 KiB, never raised);
 * what a read leaves of a frame moves to the front, so a frame always fits.
 */
const IN_BYTES = 64 * 1024;
/** Default windows we advertise (per stream and for the connection): large enough never to throttle. */
export const DEFAULT_H2_WINDOW_BYTES = 16 * 1024 * 1024;

/** What a stream (one slot of h2_connection.ts) holds while a request is in flight on it. */
export interface H2Stream {
  streamId: number;
  request: H2Request | null;
  bodyOffset: number;
  sendWindow: number;
  recvUnacked: number;
  status: number;
  intendedMs: number;
  sentMs: number;
  /**
   * The request ended: `counted` when answered or counted as failed; false when it was never sent (the
   * connection failed while it waited for a stream).
   */
  ended(nowMs: number, counted: boolean): void;
}

/** The run's HTTP/2 settings, shared by every connection of a worker. */
export interface H2Run {
  readonly requests: readonly H2Request[];
  /** Our receive windows (SETTINGS_INITIAL_WINDOW_SIZE and the connection's), bytes. */
  readonly windowBytes: number;
}

export abstract class H2Session {
  #sock: TransportConn | null = null;
  #inline: InlineConn | null = null;
  #opening: Promise<boolean> | null = null;
  readonly #dialer: Dialer;

  // Input.
  readonly in = new Uint8Array(IN_BYTES);
  inEnd = 0;
  #inView: Uint8Array = this.in;
  decoder = new HpackDecoder();
  peer = new PeerSettings();
  gotSettings = false;
  /**
   * Header block of a HEADERS frame continued by CONTINUATION frames, at most `maxHeaderBytes`; made on
   * the first such block (most servers never split one).
   */
  headerBlock: Uint8Array = EMPTY;
  headerBlockLength = 0;
  /** Stream of the header block being continued (0: none), and whether its HEADERS ended the stream. */
  continuing = 0;
  continuingEndStream = false;
  /** DATA bytes consumed since the last connection WINDOW_UPDATE. */
  recvUnacked = 0;

  /** Frames to send, written once per batch (h2_output.ts). */
  readonly output = new H2Output({
    socket: () => this.#sock,
    inline: () => this.#inline,
    writeFailed: (err) => this.#socketFailed(err, "write"),
    overflowed: () =>
      this.fail(
        "h2-protocol",
        `more than ${MAX_OUT_BYTES} bytes queued: the server stopped reading`,
        performance.now(),
      ),
  });

  // Streams.
  readonly streams = new Map<number, H2Stream>();
  /** Streams waiting for room: the peer's max concurrent streams, or a connection going away. */
  readonly pending: H2Stream[] = [];
  /** Streams whose body waits for the peer's windows. */
  readonly blocked: H2Stream[] = [];
  nextStreamId = 1;
  sendWindow = DEFAULT_WINDOW_BYTES;
  /** The peer sent GOAWAY (or ids ran out): no new streams; reconnect once the last one ends. */
  goingAway = false;
  /** Most streams open at once on this connection (results: per-connection stream counts). */
  maxOpenStreams = 0;
  #settledInBatch = false;

  readonly #reader: InlineReader = {
    onRead: (n) => this.#onInlineRead(n),
    onReadError: (err) => {
      this.#socketFailed(err, "read");
      return this.#takeSettled();
    },
    // The pump drained the socket: one write for every frame the reads since the last one queued
    // (over TLS one SSL_write, one record, instead of one per record read).
    onDrained: () => this.output.flush(),
  };

  constructor(readonly id: number, readonly shared: ConnectionShared, readonly run: H2Run) {
    this.#dialer = new Dialer(shared, null);
  }

  get isOpen(): boolean {
    return this.#sock !== null;
  }

  get openStreams(): number {
    return this.streams.size;
  }

  /** Dials (once for every slot that asks at the same time); false when the connect failed (counted). */
  open(): Promise<boolean> {
    if (this.#sock !== null) return Promise.resolve(true);
    this.#opening ??= this.#dialer.dial().then((sock) => {
      if (sock === null) return false;
      this.#start(sock);
      return true;
    }).finally(() => this.#opening = null);
    return this.#opening;
  }

  /** Aborts a connect under way (shutdown). */
  abortConnect(): void {
    this.#dialer.abort();
  }

  /** A fresh connection's state, the preface and our SETTINGS, and the first read. */
  #start(sock: TransportConn): void {
    this.#sock = sock;
    this.#inline = inlineOf(sock);
    this.inEnd = 0;
    this.#inView = this.in;
    this.decoder = new HpackDecoder(4096, this.shared.maxHeaderBytes);
    this.peer = new PeerSettings();
    this.gotSettings = false;
    this.continuing = 0;
    this.recvUnacked = 0;
    this.output.reset();
    this.nextStreamId = 1;
    this.sendWindow = DEFAULT_WINDOW_BYTES;
    this.goingAway = false;
    this.maxOpenStreams = 0;
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
    if (this.#inline !== null) this.#inline.armRead(this.#inView, this.#reader);
    else this.#readLoop(sock);
  }

  async #readLoop(sock: TransportConn): Promise<void> {
    while (this.#sock === sock) {
      let n: number | null;
      try {
        n = await sock.read(this.#inView);
      } catch (err) {
        if (this.#sock === sock) this.#socketFailed(err, "read");
        return;
      }
      if (this.#sock !== sock) return;
      this.#batch(n, performance.now());
      this.output.flush();
      this.#settledInBatch = false;
    }
  }

  /** Inline read: frames handled; the write waits for `onDrained` (the pump's end of this socket's reads). */
  #onInlineRead(n: number | null): boolean {
    const inline = this.#inline!;
    this.#batch(n, inline.nowMs());
    if (this.#inline === inline) inline.armRead(this.#inView, this.#reader);
    return this.#takeSettled();
  }

  #takeSettled(): boolean {
    const settled = this.#settledInBatch;
    this.#settledInBatch = false;
    return settled;
  }

  /** Bytes read (null: end of stream): frames handled; what they queued is written by the caller. */
  #batch(n: number | null, nowMs: number): void {
    if (n === null) {
      this.fail("closed-early", "the server closed the connection", nowMs);
      return;
    }
    this.shared.recorder.addBytesRead(nowMs, n);
    this.inEnd += n;
    this.output.inBatch = true;
    try {
      const used = this.consume(nowMs);
      if (this.#sock === null) return;
      if (used > 0) {
        if (used < this.inEnd) this.in.copyWithin(0, used, this.inEnd);
        this.inEnd -= used;
      }
      this.#inView = this.inEnd === 0 ? this.in : this.in.subarray(this.inEnd);
    } finally {
      this.output.inBatch = false;
    }
  }

  /** Handles the complete frames in `in[0, inEnd)`; returns the bytes used (h2_frames_in.ts). */
  abstract consume(nowMs: number): number;

  /**
   * Starts `stream`'s request now, or queues it until a stream may be opened. The first streams of a
   * connection wait for the server's SETTINGS (one round trip, once): sent before it, streams above the
   * server's SETTINGS_MAX_CONCURRENT_STREAMS would be refused.
   */
  send(stream: H2Stream): void {
    if (
      this.#sock === null || this.goingAway || !this.gotSettings ||
      this.streams.size >= this.peer.maxConcurrentStreams || this.pending.length > 0
    ) {
      this.pending.push(stream);
      return;
    }
    this.#openStream(stream);
  }

  #openStream(stream: H2Stream): void {
    const id = this.nextStreamId;
    if (id > MAX_STREAM_ID) {
      // Stream ids used up: this connection ends like one the server sent GOAWAY on.
      this.goingAway = true;
      this.pending.push(stream);
      if (this.streams.size === 0) this.reconnect();
      return;
    }
    this.nextStreamId += 2;
    const request = stream.request!;
    stream.streamId = id;
    stream.status = 0;
    stream.recvUnacked = 0;
    stream.bodyOffset = 0;
    stream.sendWindow = this.peer.initialWindowBytes;
    this.streams.set(id, stream);
    if (this.streams.size > this.maxOpenStreams) this.maxOpenStreams = this.streams.size;
    const at = this.output.reserve(request.frames.length);
    this.output.wrote(writeHeadersFrames(this.output.bytes, at, request, id));
    this.shared.recorder.addBytesWritten(stream.sentMs, request.frames.length + (request.body?.length ?? 0));
    if (request.body !== null) this.sendBody(stream);
  }

  /** Sends what the windows allow of `stream`'s body; the rest waits for a WINDOW_UPDATE. */
  sendBody(stream: H2Stream): void {
    const body = stream.request!.body!;
    while (stream.bodyOffset < body.length) {
      const room = Math.min(this.sendWindow, stream.sendWindow, this.peer.maxFrameBytes);
      if (room <= 0) {
        if (!this.blocked.includes(stream)) this.blocked.push(stream);
        return;
      }
      const size = Math.min(room, body.length - stream.bodyOffset);
      const last = stream.bodyOffset + size === body.length;
      const at = this.output.reserve(FRAME_HEADER_BYTES + size);
      const out = this.output.bytes;
      const p = writeFrameHeader(out, at, size, DATA, last ? FLAG_END_STREAM : 0, stream.streamId);
      out.set(body.subarray(stream.bodyOffset, stream.bodyOffset + size), p);
      this.output.wrote(p + size);
      stream.bodyOffset += size;
      this.sendWindow -= size;
      stream.sendWindow -= size;
    }
  }

  /** A stream ended (answered, or failed and counted): its slot goes on; a waiting stream may start. */
  endStream(stream: H2Stream, nowMs: number, kind: ErrorKind | null, message: string): void {
    if (this.streams.get(stream.streamId) === stream) this.streams.delete(stream.streamId);
    this.#unblock(stream);
    if (kind === null) {
      this.shared.recorder.recordResponse(
        nowMs,
        stream.status,
        (nowMs - stream.intendedMs) * 1000,
        (nowMs - stream.sentMs) * 1000,
      );
      this.shared.log?.write(stream.status, stream.intendedMs, nowMs, this.id);
    } else if (!this.shared.stopping) this.shared.recorder.recordError(nowMs, kind, message);
    this.#settledInBatch = true;
    this.startPending();
    stream.ended(nowMs, true);
    if (this.goingAway && this.streams.size === 0) this.reconnect();
  }

  /** Opens waiting streams while the peer allows more. */
  startPending(): void {
    while (
      this.pending.length > 0 && this.#sock !== null && !this.goingAway && this.gotSettings &&
      this.streams.size < this.peer.maxConcurrentStreams
    ) {
      this.#openStream(this.pending.shift()!);
    }
  }

  /** Cancels `stream` (the watchdog's timeout): RST_STREAM CANCEL, counted as a timeout. */
  cancel(stream: H2Stream, message: string): void {
    this.cancelQuietly(stream);
    this.endStream(stream, performance.now(), "timeout", message);
  }

  /** Forgets `stream` without counting it (its caller does): RST_STREAM CANCEL when it was open. */
  cancelQuietly(stream: H2Stream): void {
    const waiting = this.pending.indexOf(stream);
    if (waiting >= 0) this.pending.splice(waiting, 1);
    else if (this.streams.get(stream.streamId) === stream) {
      this.streams.delete(stream.streamId);
      if (this.#sock !== null) this.resetStream(stream.streamId, CANCEL);
    }
    this.#unblock(stream);
  }

  /** Queues a RST_STREAM for `streamId`. */
  resetStream(streamId: number, errorCode: number): void {
    const at = this.output.reserve(RST_STREAM_BYTES);
    this.output.wrote(writeRstStream(this.output.bytes, at, streamId, errorCode));
  }

  #unblock(stream: H2Stream): void {
    const k = this.blocked.indexOf(stream);
    if (k >= 0) this.blocked.splice(k, 1);
  }

  /**
   * A connection error of ours (the peer broke the protocol): GOAWAY with `errorCode`, then every
   * stream in flight counted under `kind` and the socket closed.
   */
  protocolError(errorCode: number, message: string, nowMs: number): void {
    if (this.#sock === null) return;
    const at = this.output.reserve(GOAWAY_BYTES);
    this.output.wrote(writeGoaway(this.output.bytes, at, 0, errorCode));
    this.output.flush();
    this.fail("h2-protocol", message, nowMs);
  }

  #socketFailed(err: unknown, phase: "read" | "write"): void {
    if (this.#sock === null) return;
    this.fail(classifyError(err, phase), errorMessage(err), performance.now());
  }

  /** Closes the socket; streams in flight are counted under `kind`, waiting ones end unsent. */
  fail(kind: ErrorKind, message: string, nowMs: number): void {
    const wasOpen = this.#close();
    const inFlight = [...this.streams.values()];
    const waiting = this.pending.splice(0);
    this.streams.clear();
    this.blocked.length = 0;
    for (const stream of inFlight) this.endStream(stream, nowMs, kind, message);
    if (inFlight.length === 0 && wasOpen && kind === "h2-protocol" && !this.shared.stopping) {
      this.shared.recorder.recordError(nowMs, kind, message);
    }
    for (const stream of waiting) stream.ended(nowMs, false);
  }

  /** After GOAWAY, once its last stream ended: a new connection for the streams waiting, if any. */
  reconnect(): void {
    this.#close();
    if (this.pending.length === 0 || this.shared.stopping) return;
    this.open().then((ok) => {
      if (ok) this.startPending();
      else this.fail("connect", "", performance.now());
    });
  }

  /** Closes the socket (shutdown, or a slot's own close); true when it was open. */
  #close(): boolean {
    const sock = this.#sock;
    if (sock === null) return false;
    this.#sock = null;
    this.#inline = null;
    this.output.reset();
    this.shared.recorder.connections--;
    try {
      sock.close();
    } catch { /* already closed */ }
    return true;
  }

  /** Closes everything now (shutdown): streams in flight end, counted unless the run is stopping. */
  close(): void {
    this.abortConnect();
    this.fail("closed-early", "the connection was closed", performance.now());
  }
}

const EMPTY = new Uint8Array(0);
