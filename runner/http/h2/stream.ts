/**
 * @module
 * The shapes an HTTP/2 connection of the engine works with: a stream (`H2Stream`, met by one slot of
 * slot.ts, whose fields stream_table.ts fills while its request is in flight) and the run's
 * HTTP/2 settings every connection of a worker shares (`H2Run`). Types only, so the session, its
 * streams, its frame intake and the slots import them without importing each other.
 */
import type { H2Request } from "./request.ts";
import type { H2KeptResponse } from "./kept.ts";
import type { StreamAnswer } from "../stream_answer.ts";

/**
 * Re-sends of one request the server refused unprocessed (above a GOAWAY's last stream id, or reset with
 * REFUSED_STREAM; RFC 9113 8.7) before it counts as failed: a server that refuses every stream cannot
 * keep one request going round for ever.
 */
export const MAX_RESENDS = 3;

/** What a stream (one slot of h2/slot.ts) holds while a request is in flight on it. */
export interface H2Stream {
  streamId: number;
  request: H2Request | null;
  bodyOffset: number;
  sendWindow: number;
  recvUnacked: number;
  status: number;
  /**
   * DATA octets the final head's `content-length` still promises, or -1 when nothing is checked (no
   * content-length, a HEAD request, 204 or 304): a response whose DATA differs is malformed (RFC 9113 8.1.1).
   */
  contentRemaining: number;
  /** DATA octets of the response so far (a timeout says how much of it had come). */
  receivedBytes: number;
  intendedMs: number;
  sentMs: number;
  /** The endpoint index of the request (runner/endpoint_table.ts), fixed when it was picked. */
  endpoint: number;
  /** What of the response a flow step keeps (head fields, body), or null: the usual path keeps nothing. */
  kept: H2KeptResponse | null;
  /** What judges the answer beyond HTTP (gRPC's messages and status), or null: HTTP alone. */
  readonly answer: StreamAnswer | null;
  /** The last request ended with a response (false: it failed, counted by kind). */
  answered: boolean;
  /**
   * The server refused it unprocessed (GOAWAY, REFUSED_STREAM; counted `retried`): it waits to go again,
   * after a GOAWAY on a new connection.
   */
  refused: boolean;
  /** Times this request was sent again (at most MAX_RESENDS); 0 when it starts. */
  resends: number;
  /**
   * The request ended: `counted` when answered or counted as failed; false when it was never sent and
   * not counted (the run is stopping, or a connect failed, counted once by the dialer).
   */
  ended(nowMs: number, counted: boolean): void;
}

/** The run's HTTP/2 settings, shared by every connection of a worker. */
export interface H2Run {
  readonly requests: readonly H2Request[];
  /** Our receive windows (SETTINGS_INITIAL_WINDOW_SIZE and the connection's), bytes. */
  readonly windowBytes: number;
  /** Makes each stream's judge of its answers (a protocol on HTTP/2: gRPC), or absent: HTTP alone. */
  readonly answer?: () => StreamAnswer;
}
