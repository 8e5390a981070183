/**
 * @module
 * The close handshake of one WebSocket connection (RFC 6455 5.5.1, 7.1.1, 7.4): one close frame per socket,
 * whether the server's came, and the wait for the server to close TCP, so the TIME_WAIT is the server's.
 */
import type { ErrorKind } from "../../../results/mod.ts";
import type { FrameFault } from "../../../ws/frame_parser.ts";
import { closeFrame } from "../../../ws/frame_encoder.ts";
import { CLOSE_INVALID_DATA, CLOSE_PROTOCOL_ERROR, CLOSE_TOO_BIG } from "../../../ws/opcodes.ts";
import type { InlineConn, InlineReader } from "../transport/transport.ts";
import type { FrameWriter } from "./frame_writer.ts";
import type { WsRun } from "./run.ts";

/** Each frame fault's counted kind, and the code of the close frame that answers it. */
export const FRAME_FAULTS: Record<FrameFault, { kind: ErrorKind; closeCode: number }> = {
  "protocol": { kind: "ws-protocol", closeCode: CLOSE_PROTOCOL_ERROR },
  "too-big": { kind: "ws-too-big", closeCode: CLOSE_TOO_BIG },
  "bad-utf8": { kind: "ws-bad-utf8", closeCode: CLOSE_INVALID_DATA },
};

export class CloseHandshake {
  /** A close frame was sent / received on this socket. */
  sent = false;
  received = false;

  constructor(readonly writer: FrameWriter, readonly run: Pick<WsRun, "stats" | "keys">) {}

  reset(): void {
    this.sent = this.received = false;
  }

  /** Sends a close frame with `code` (0: an empty one) unless one went already; counted at `nowMs`. */
  send(code: number, nowMs: number): void {
    if (this.sent) return;
    this.sent = true;
    if (this.run.stats.counts(nowMs)) this.run.stats.closesSent++;
    this.writer.send(closeFrame(code, "", this.run.keys));
  }
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
