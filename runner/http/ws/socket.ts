/**
 * @module
 * What a load connection's WebSocket and a flow session's share: the socket, its ordered writer, its frame
 * parser, pongs, frame faults and the close handshake (RFC 6455 5.5.1, 7.1.1: the TIME_WAIT is the server's).
 */
import type { ErrorKind } from "../../../results/mod.ts";
import { type FrameFault, FrameParser, type FrameSink } from "../../../ws/frame_parser.ts";
import { closeFrame, pongFrame } from "../../../ws/frame_encoder.ts";
import {
  CLOSE_INVALID_DATA,
  CLOSE_PROTOCOL_ERROR,
  CLOSE_TOO_BIG,
  DEFAULT_MAX_MESSAGE_BYTES,
} from "../../../ws/opcodes.ts";
import type { ConnectionShared } from "../load_connection.ts";
import { hangUp } from "../transport/dial.ts";
import { type InlineConn, inlineOf, type InlineReader, type TransportConn } from "../transport/transport.ts";
import { PromiseInline } from "../transport/promise_inline.ts";
import { FrameWriter, type WriteOwner } from "./frame_writer.ts";
import type { WsRun } from "./run.ts";

/** Each frame fault's counted kind, and the code of the close frame that answers it. */
const FRAME_FAULTS: Record<FrameFault, { kind: ErrorKind; closeCode: number }> = {
  "protocol": { kind: "ws-protocol", closeCode: CLOSE_PROTOCOL_ERROR },
  "too-big": { kind: "ws-too-big", closeCode: CLOSE_TOO_BIG },
  "bad-utf8": { kind: "ws-bad-utf8", closeCode: CLOSE_INVALID_DATA },
};

/** What a WebSocket of the worker counts in and masks with, and its received messages' cap. */
export type WsSocketRun = Pick<WsRun, "stats" | "keys" | "budget"> & { readonly maxMessageBytes?: number };

export abstract class WsSocket implements FrameSink, WriteOwner, InlineReader {
  protected sock: InlineConn | null = null;
  protected parser: FrameParser;
  protected readonly writer = new FrameWriter(this);
  /** When the bytes being parsed were read: the frames' handlers and close frames use it. */
  protected nowMs = 0;
  /** A close frame was sent / received on this socket. */
  protected closeSent = false;
  protected closeReceived = false;
  readonly maxMessageBytes: number;
  /** A socket was taken before: the next one's parser starts anew. */
  #taken = false;

  constructor(readonly shared: ConnectionShared, readonly run: WsSocketRun) {
    this.maxMessageBytes = run.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.parser = this.#newParser();
  }

  #newParser(): FrameParser {
    return new FrameParser(this, this.maxMessageBytes, false, this.run.budget);
  }

  get isOpen(): boolean {
    return this.sock !== null;
  }

  /** Takes a socket just dialed, with a close handshake and (but the first socket's) a parser anew. */
  protected takeSocket(sock: TransportConn): InlineConn {
    const conn = this.sock = inlineOf(sock) ?? new PromiseInline(sock);
    this.writer.reset(conn);
    this.closeSent = this.closeReceived = false;
    if (this.#taken) {
      this.parser.release();
      this.parser = this.#newParser();
    }
    this.#taken = true;
    return conn;
  }

  /** A failure counted under `endpoint` (-1: the run's), unless the run is stopping. */
  fault(nowMs: number, kind: ErrorKind, message: string, endpoint = -1): void {
    if (!this.shared.stopping) this.shared.recorder.recordError(nowMs, kind, message, endpoint);
  }

  /** The parser's fault answered with its close frame; its counted kind. */
  protected frameFault(): ErrorKind {
    const { kind, closeCode } = FRAME_FAULTS[this.parser.fault!];
    this.closeWith(closeCode);
    return kind;
  }

  /** Sends a close frame with `code` (0: an empty one) once per socket; counted at `nowMs`. */
  protected closeWith(code: number, nowMs = this.nowMs): void {
    if (this.sock === null || this.closeSent) return;
    this.closeSent = true;
    const stats = this.run.stats;
    if (stats.counts(nowMs)) stats.closesSent++;
    this.writer.send(closeFrame(code, this.run.keys));
  }

  protected closeSocket(): void {
    const sock = this.sock;
    if (sock === null) return;
    this.sock = null;
    this.writer.reset(null);
    this.parser.release();
    hangUp(this.shared, sock);
  }

  /** Answers only the newest ping while a write is under way (RFC 6455 5.5.3): bursts queue no pongs. */
  onPing(buf: Uint8Array, start: number, end: number): void {
    this.writer.sendPong(pongFrame(buf.slice(start, end), this.run.keys));
  }

  abstract writeFailed(): void;
  abstract onRead(n: number | null): boolean;
  abstract onReadError(err: unknown): boolean;
  abstract onMessage(text: boolean, buf: Uint8Array, start: number, end: number): void;
  abstract onPong(): void;
  abstract onClose(code: number): void;
}

/** After the server's close frame: reads until it closes TCP, the socket is cut, or `owned` ends. */
export function readUntilServerCloses(
  sock: InlineConn,
  buf: Uint8Array,
  owned: () => boolean,
): Promise<void> {
  return new Promise((resolve) => {
    const reader: InlineReader = {
      onRead(n: number | null): boolean {
        if (n === null || !owned()) resolve();
        else sock.armRead(buf, reader);
        return true;
      },
      // A failed read is the cut: the close handshake was done all the same.
      onReadError(): boolean {
        resolve();
        return true;
      },
    };
    sock.armRead(buf, reader);
  });
}
