/**
 * @module
 * What the parts of an HTTP/2 connection reach of their connection (`H2Core`): shared parts, the peer's
 * settings and HPACK table, the output, and the ways it ends. Types only, so no part imports the connection.
 */
import type { PeerSettings } from "../../../http2/frames.ts";
import type { HpackDecoder } from "../../../http2/hpack/decoder.ts";
import type { ConnectionShared } from "../load_connection.ts";
import type { H2Output } from "./output.ts";
import type { H2Run } from "./stream.ts";

/** One h2 connection as its parts see it. */
export interface H2Core {
  readonly id: number;
  readonly shared: ConnectionShared;
  readonly run: H2Run;
  readonly output: H2Output;
  /** The peer's SETTINGS (a new object per connection). */
  readonly peer: PeerSettings;
  /** The response heads' HPACK decoder (a new one per connection). */
  readonly decoder: HpackDecoder;
  /** The server's first SETTINGS came: streams may open. */
  gotSettings: boolean;
  /** The error code of the peer's last GOAWAY (-1: none), named when the connection then ends. */
  goawayCode: number;
  readonly isOpen: boolean;
  /** A connection error of ours: GOAWAY with `errorCode`, streams in flight counted, the socket closed. */
  protocolError(errorCode: number, message: string, nowMs: number): void;
  /** `protocolError` with the code's name leading the message; false, so a frame handler stops. */
  frameError(code: number, message: string, nowMs: number): boolean;
  /** After GOAWAY, once its last stream ended: the streams waiting go on a new connection, if any. */
  reconnect(): void;
  /** After GOAWAY with streams still processed: the waiting and new ones go on a new connection now. */
  handOver(): void;
}
