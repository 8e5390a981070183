/**
 * @module
 * The control frames an HTTP/2 client receives that change the connection (RFC 9113 sections 6.5, 6.8,
 * 6.9): SETTINGS (validated, applied, acknowledged), WINDOW_UPDATE (the peer's windows for request bodies)
 * and GOAWAY (the streams it refused go again on a new connection, counted as retried). A layer between
 * the response heads (h2/headers_in.ts) and the frame loop (h2/frames_in.ts), so each stays a file of one
 * concern.
 */
import {
  applySettings,
  errorCodeName,
  FLAG_ACK,
  FLOW_CONTROL_ERROR,
  FRAME_SIZE_ERROR,
  MAX_WINDOW_BYTES,
  NO_ERROR,
  PROTOCOL_ERROR,
  settingsFrameBytes,
  writeSettingsAck,
} from "../../../http2/frames.ts";
import { H2HeadersIn } from "./headers_in.ts";
import type { H2Stream } from "./stream.ts";

export abstract class H2ControlIn extends H2HeadersIn {
  /** SETTINGS: validated, applied (a new initial window moves every stream's) and acknowledged. */
  protected settings(
    buf: Uint8Array,
    at: number,
    length: number,
    flags: number,
    id: number,
    nowMs: number,
  ): boolean {
    if (id !== 0) return this.frameError(PROTOCOL_ERROR, "SETTINGS on a stream", nowMs);
    if ((flags & FLAG_ACK) !== 0) {
      return length === 0 ? true : this.frameError(FRAME_SIZE_ERROR, "SETTINGS ACK with a payload", nowMs);
    }
    const before = this.peer.initialWindowBytes;
    const problem = applySettings(buf, at, at + length, this.peer, true);
    if (problem !== null) return this.frameError(problem.errorCode, problem.message, nowMs);
    this.gotSettings = true;
    const ack = this.output.reserve(settingsFrameBytes(0));
    this.output.wrote(writeSettingsAck(this.output.bytes, ack));
    const delta = this.peer.initialWindowBytes - before;
    if (delta !== 0) {
      for (const stream of this.streams.values()) {
        stream.sendWindow += delta;
        if (stream.sendWindow > MAX_WINDOW_BYTES) {
          return this.frameError(
            FLOW_CONTROL_ERROR,
            "SETTINGS_INITIAL_WINDOW_SIZE overflows a window",
            nowMs,
          );
        }
      }
      this.#sendBlocked();
    }
    this.startPending();
    return true;
  }

  /** WINDOW_UPDATE: the peer's window for the connection or a stream grows; blocked bodies go on. */
  protected windowUpdate(id: number, increment: number, nowMs: number): boolean {
    if (id === 0) {
      if (increment === 0) return this.frameError(PROTOCOL_ERROR, "WINDOW_UPDATE of 0", nowMs);
      this.sendWindow += increment;
      if (this.sendWindow > MAX_WINDOW_BYTES) {
        return this.frameError(FLOW_CONTROL_ERROR, "WINDOW_UPDATE beyond 2^31-1", nowMs);
      }
    } else {
      const stream = this.streams.get(id);
      if (stream === undefined) {
        // On a closed stream it may have been on its way (RFC 9113 5.1); on an idle one it cannot.
        return this.idle(id)
          ? this.frameError(PROTOCOL_ERROR, `WINDOW_UPDATE on idle stream ${id}`, nowMs)
          : true;
      }
      if (increment === 0) return this.streamError(stream, "WINDOW_UPDATE of 0", nowMs);
      stream.sendWindow += increment;
      if (stream.sendWindow > MAX_WINDOW_BYTES) {
        this.resetStream(id, FLOW_CONTROL_ERROR);
        this.endStream(stream, nowMs, "h2-protocol", "WINDOW_UPDATE beyond 2^31-1 on a stream");
        return true;
      }
    }
    this.#sendBlocked();
    return true;
  }

  #sendBlocked(): void {
    if (this.blocked.length === 0) return;
    const blocked = this.blocked.splice(0);
    for (const stream of blocked) this.sendBody(stream);
  }

  /**
   * GOAWAY: streams above `lastId` were not processed; they go again on a new connection, each counted as
   * `retried` (a server ending a connection after its N requests is healthy): the request counts once,
   * as the outcome of its re-send. One refused past its re-sends counts as `goaway`.
   */
  protected goaway(lastId: number, code: number, nowMs: number): void {
    this.goingAway = true;
    this.goawayCode = code;
    const refused: H2Stream[] = [];
    for (const [id, stream] of this.streams) if (id > lastId) refused.push(stream);
    // Those sent again first (in the order they started), ahead of the requests the spent ones' ends start.
    const spent = refused.reverse().filter((stream) => !this.resend(stream, nowMs));
    for (const stream of spent) {
      this.endStream(stream, nowMs, "goaway", this.refusedMessage(stream, `GOAWAY ${errorCodeName(code)}`));
    }
    if (code !== NO_ERROR && refused.length === 0 && this.streams.size === 0 && !this.shared.stopping) {
      this.shared.recorder.recordError(nowMs, "goaway", `GOAWAY ${errorCodeName(code)}`);
    }
    if (this.streams.size === 0) this.reconnect();
  }
}
