/**
 * @module
 * The streams of an HTTP/2 connection (RFC 9113 section 5): h2/session.ts's socket, input and output
 * with the requests put on it. HOT PATH: a request starts on a new stream id at once when the peer
 * allows one more (else it waits in `pending`, as the first ones wait for the server's SETTINGS), its
 * pre-encoded HEADERS copied into the output with the id patched (h2/request.ts) and its body sent as
 * far as the flow-control windows allow (the rest waits in `blocked` for a WINDOW_UPDATE). A stream's
 * end records its response or counts its error by kind and lets a waiting stream start; a timeout
 * cancels with RST_STREAM. Frames in are handled by h2/frames_in.ts, above this class.
 */
import type { ErrorKind } from "../../../results/mod.ts";
import {
  CANCEL,
  DATA,
  FLAG_END_STREAM,
  FRAME_HEADER_BYTES,
  MAX_STREAM_ID,
  NO_ERROR,
  RST_STREAM_BYTES,
  writeFrameHeader,
  writeRstStream,
} from "../../../http2/frames.ts";
import { writeHeadersFrames } from "./request.ts";
import { CLOSED_RING, H2Session } from "./session.ts";
import { type H2Stream, MAX_RESENDS } from "./stream.ts";

/** How a stream closed, for frames that follow (RFC 9113 5.1): unknown or reset by us (ignore them). */
export const CLOSED_UNKNOWN = 0;
/** The server ended it with END_STREAM: DATA or HEADERS after is a connection error STREAM_CLOSED. */
export const CLOSED_ENDED = 1;
/** The server reset it with RST_STREAM: DATA or HEADERS after is a stream error STREAM_CLOSED. */
export const CLOSED_RESET = 2;

export abstract class H2Streams extends H2Session {
  /**
   * Starts `stream`'s request now, or queues it until a stream may be opened. The first streams of a
   * connection wait for the server's SETTINGS (one round trip, once): sent before it, streams above the
   * server's SETTINGS_MAX_CONCURRENT_STREAMS would be refused.
   */
  send(stream: H2Stream): void {
    if (
      this.sock === null || this.goingAway || !this.gotSettings ||
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
    stream.refused = false;
    stream.status = 0;
    stream.contentRemaining = -1;
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
    this.unblock(stream);
    stream.answered = kind === null;
    if (kind === null) {
      const body = stream.request?.body ?? null;
      if (body === null || stream.bodyOffset === body.length) this.closedAs(stream.streamId, CLOSED_ENDED);
      else if (this.sock !== null) {
        // Answered before all of its body went (RFC 9113 8.1): the rest is not needed, and the stream
        // must close on the server's side too, or it still counts there towards its
        // SETTINGS_MAX_CONCURRENT_STREAMS (5.1.2) while we open the next one.
        this.resetStream(stream.streamId, NO_ERROR);
      }
      this.shared.recorder.recordResponse(
        nowMs,
        stream.status,
        (nowMs - stream.intendedMs) * 1000,
        (nowMs - stream.sentMs) * 1000,
      );
      this.shared.log?.write(stream.status, stream.intendedMs, nowMs, this.id);
    } else if (!this.shared.stopping) this.shared.recorder.recordError(nowMs, kind, message);
    this.settledInBatch = true;
    this.startPending();
    stream.ended(nowMs, true);
    if (this.goingAway && this.streams.size === 0) this.reconnect();
  }

  /**
   * The server refused `stream` unprocessed (RFC 9113 8.7: above a GOAWAY's last id, or reset with
   * REFUSED_STREAM), so its request may go again whatever its method: it leaves this connection's
   * streams and waits at the front of `pending` (it started first), counted `retried`, its latency still
   * from its intended send time. False when it may not: its MAX_RESENDS re-sends are spent, or the run is
   * stopping; the caller then ends it, counted (`refusedMessage` says how often it was refused).
   */
  protected resend(stream: H2Stream, nowMs: number): boolean {
    if (this.streams.get(stream.streamId) === stream) this.streams.delete(stream.streamId);
    this.unblock(stream);
    if (stream.resends >= MAX_RESENDS || this.shared.stopping) return false;
    stream.resends++;
    stream.refused = true;
    this.shared.recorder.retried(nowMs);
    this.pending.unshift(stream);
    return true;
  }

  /** Why a request refused past its re-sends failed: `cause` and how many times it was refused. */
  protected refusedMessage(stream: H2Stream, cause: string): string {
    return `${cause}: refused ${stream.resends + 1} times, not sent again`;
  }

  /** Opens waiting streams while the peer allows more. */
  startPending(): void {
    while (
      this.pending.length > 0 && this.sock !== null && !this.goingAway && this.gotSettings &&
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
      if (this.sock !== null) this.resetStream(stream.streamId, CANCEL);
    }
    this.unblock(stream);
  }

  /** Queues a RST_STREAM for `streamId`. */
  resetStream(streamId: number, errorCode: number): void {
    const at = this.output.reserve(RST_STREAM_BYTES);
    this.output.wrote(writeRstStream(this.output.bytes, at, streamId, errorCode));
  }

  /** Remembers how stream `id` closed (a CLOSED_*), for the frames the server may still send on it. */
  closedAs(id: number, how: number): void {
    const k = (id >>> 1) & (CLOSED_RING - 1);
    this.closedIds[k] = id;
    this.closedHow[k] = how;
  }

  /** How stream `id` closed, if it is remembered (CLOSED_UNKNOWN otherwise). */
  closedHowOf(id: number): number {
    const k = (id >>> 1) & (CLOSED_RING - 1);
    return this.closedIds[k] === id ? this.closedHow[k] : CLOSED_UNKNOWN;
  }

  /** `stream` no longer waits for a window (it ended, or GOAWAY sends it again elsewhere). */
  protected unblock(stream: H2Stream): void {
    const k = this.blocked.indexOf(stream);
    if (k >= 0) this.blocked.splice(k, 1);
  }
}
