/**
 * @module
 * The shapes the parts of an HTTP/2 connection work with (`H2Core`, `H2Stream`, `H2Run`); types only.
 */
import type { PeerSettings } from "../../../http2/frames.ts";
import type { HpackDecoder } from "../../../http2/hpack/decoder.ts";
import type { ConnectionShared } from "../load_connection.ts";
import type { H2Output } from "./output.ts";
import type { H2Request } from "./request.ts";
import type { H2KeptResponse } from "./kept.ts";
import type { StreamAnswer } from "../stream_answer.ts";

/** Re-sends of a request refused unprocessed (RFC 9113 8.7) before it fails; gRPC's: grpc-go's one. */
export const MAX_RESENDS = 3;
export const MAX_GRPC_RESENDS = 1;

export interface H2Stream {
  streamId: number;
  request: H2Request | null;
  bodyOffset: number;
  /** Where the body's sending stops for now: its end, or with a stream interval its message's end. */
  pauseAt: number;
  sendWindow: number;
  recvUnacked: number;
  status: number;
  /** DATA octets `content-length` still promises, or -1 when unchecked; a mismatch is malformed (8.1.1). */
  contentRemaining: number;
  /** DATA octets of the response so far (a timeout says how much of it had come). */
  receivedBytes: number;
  intendedMs: number;
  sentMs: number;
  endpoint: number;
  /** What of the response a flow step keeps (head fields, body), or null: the usual path keeps nothing. */
  kept: H2KeptResponse | null;
  /** What judges the answer beyond HTTP (gRPC's messages and status), or null: HTTP alone. */
  readonly answer: StreamAnswer | null;
  answered: boolean;
  /** The server refused it unprocessed (counted `retried`): it waits to go again. */
  refused: boolean;
  resends: number;
  /** The request ended: `counted` when answered or counted failed; false when never sent and not counted. */
  ended(nowMs: number, counted: boolean): void;
  /** Its connection handed over after a GOAWAY: the request and the ones after go on the partner. */
  rehome(): void;
}

export interface H2Run {
  readonly requests: readonly H2Request[];
  /** Our receive windows (SETTINGS_INITIAL_WINDOW_SIZE and the connection's), bytes. */
  readonly windowBytes: number;
  /** Makes each stream's judge of its answers (a protocol on HTTP/2: gRPC), or absent: HTTP alone. */
  readonly answer?: () => StreamAnswer;
  /** A pause between a client stream's messages (gRPC's length-prefixed ones), ms; 0: none. */
  readonly streamIntervalMs?: number;
}

export interface H2Core {
  readonly id: number;
  readonly shared: ConnectionShared;
  readonly run: H2Run;
  readonly output: H2Output;
  readonly peer: PeerSettings;
  readonly decoder: HpackDecoder;
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
