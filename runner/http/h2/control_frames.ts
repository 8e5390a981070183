/**
 * @module
 * The control frames a client receives that change the connection (RFC 9113 6.5, 6.8, 6.9).
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
import type { StreamTable } from "./stream_table.ts";
import type { H2Core, H2Stream } from "./stream.ts";

export class ControlFrames {
  readonly #core: H2Core;
  readonly #streams: StreamTable;

  constructor(core: H2Core, streams: StreamTable) {
    this.#core = core;
    this.#streams = streams;
  }

  /** SETTINGS: validated, applied (a new initial window moves every stream's) and acknowledged. */
  settings(buf: Uint8Array, at: number, length: number, flags: number, id: number, nowMs: number): boolean {
    const core = this.#core;
    if (id !== 0) return core.frameError(PROTOCOL_ERROR, "SETTINGS on a stream", nowMs);
    if ((flags & FLAG_ACK) !== 0) {
      return length === 0 ? true : core.frameError(FRAME_SIZE_ERROR, "SETTINGS ACK with a payload", nowMs);
    }
    const peer = core.peer;
    const before = peer.initialWindowBytes;
    const problem = applySettings(buf, at, at + length, peer);
    if (problem !== null) return core.frameError(problem.errorCode, problem.message, nowMs);
    core.gotSettings = true;
    const output = core.output;
    const ack = output.reserve(settingsFrameBytes(0));
    output.wrote(writeSettingsAck(output.bytes, ack));
    const delta = peer.initialWindowBytes - before;
    if (delta !== 0) {
      for (const stream of this.#streams.byId.values()) {
        stream.sendWindow += delta;
        if (stream.sendWindow > MAX_WINDOW_BYTES) {
          return core.frameError(
            FLOW_CONTROL_ERROR,
            "SETTINGS_INITIAL_WINDOW_SIZE overflows a window",
            nowMs,
          );
        }
      }
      this.#sendBlocked();
    }
    this.#streams.startPending();
    return true;
  }

  /** WINDOW_UPDATE: the peer's window for the connection or a stream grows; blocked bodies go on. */
  windowUpdate(id: number, increment: number, nowMs: number): boolean {
    const core = this.#core;
    const streams = this.#streams;
    if (id === 0) {
      if (increment === 0) return core.frameError(PROTOCOL_ERROR, "WINDOW_UPDATE of 0", nowMs);
      streams.sendWindow += increment;
      if (streams.sendWindow > MAX_WINDOW_BYTES) {
        return core.frameError(FLOW_CONTROL_ERROR, "WINDOW_UPDATE beyond 2^31-1", nowMs);
      }
    } else {
      const stream = streams.byId.get(id);
      if (stream === undefined) {
        // On a closed stream it may have been on its way (RFC 9113 5.1); on an idle one it cannot.
        return streams.idle(id)
          ? core.frameError(PROTOCOL_ERROR, `WINDOW_UPDATE on idle stream ${id}`, nowMs)
          : true;
      }
      if (increment === 0) return streams.streamError(stream, "WINDOW_UPDATE of 0", nowMs);
      stream.sendWindow += increment;
      if (stream.sendWindow > MAX_WINDOW_BYTES) {
        streams.resetStream(id, FLOW_CONTROL_ERROR);
        streams.endStream(stream, nowMs, "h2-protocol", "WINDOW_UPDATE beyond 2^31-1 on a stream");
        return true;
      }
    }
    this.#sendBlocked();
    return true;
  }

  #sendBlocked(): void {
    const streams = this.#streams;
    if (streams.blocked.length === 0) return;
    const blocked = streams.blocked.splice(0);
    for (const stream of blocked) streams.sendBody(stream);
  }

  /** GOAWAY: streams above `lastId` go again on a new connection, counted `retried`. */
  goaway(lastId: number, code: number, nowMs: number): void {
    const core = this.#core;
    const streams = this.#streams;
    streams.goingAway = true;
    core.goawayCode = code;
    const refused: H2Stream[] = [];
    for (const [id, stream] of streams.byId) if (id > lastId) refused.push(stream);
    // Those sent again first (in the order they started), ahead of the requests the spent ones' ends start.
    const spent = refused.reverse().filter((stream) => !streams.resend(stream, nowMs));
    for (const stream of spent) {
      streams.endStream(
        stream,
        nowMs,
        "goaway",
        streams.refusedMessage(stream, `GOAWAY ${errorCodeName(code)}`),
      );
    }
    const shared = core.shared;
    if (code !== NO_ERROR && refused.length === 0 && streams.byId.size === 0 && !shared.stopping) {
      shared.recorder.recordError(nowMs, "goaway", `GOAWAY ${errorCodeName(code)}`);
    }
    if (streams.byId.size === 0) core.reconnect();
    else core.handOver();
  }
}
