/**
 * @module
 * What a protocol carried on HTTP/2 streams judges of each answer beyond HTTP (`StreamAnswer`): gRPC
 * (grpc/answer.ts) reads its own fields from every header block (handed over as bytes by the HPACK
 * decoder to the answer's `fields`), its length-prefixed messages from the
 * DATA, and its status from the trailers, and says when a call failed and by which kind. The HTTP/2 room
 * calls it at each step of a stream when its run has one (h2/stream.ts `H2Run.answer`) and ends the
 * stream with the kind it names; without one a stream costs one null check per frame. Types only, so
 * the HTTP/2 room and the rooms that ride on it meet here without importing each other.
 */
import type { ErrorKind } from "../../results/mod.ts";
import type { FieldBytesSink } from "../../http2/hpack/decoder.ts";

/** One stream's judge of its answer, reused for every request the stream carries. */
export interface StreamAnswer {
  /** Takes the fields of every header block of the answer, trailers included, as the decoder reads them. */
  readonly fields: FieldBytesSink;
  /** Why the last answer failed (valid when a step returned a kind). */
  readonly message: string;
  /**
   * The recorder's status slot of the status the server failed the last answer with (a gRPC status other
   * than OK: results/schema/values.ts `GRPC_STATUS_SLOTS_FROM`), so it counts as a response; 0 when it
   * failed without one (a broken answer).
   */
  readonly statusSlot: number;
  /** A request starts on the stream: nothing of its answer seen yet; `oneMessage`: a unary gRPC call's. */
  start(oneMessage: boolean): void;
  /** The final head came with HTTP `status`; `endStream`: it also ended the answer (trailers-only). */
  head(status: number, endStream: boolean): ErrorKind | null;
  /** A DATA frame's payload `buf[from, to)` (padding removed). */
  data(buf: Uint8Array, from: number, to: number): ErrorKind | null;
  /**
   * The answer ended: by trailers (or a trailers-only head) when `trailers`, else by END_STREAM on DATA.
   * Null: the request succeeded.
   */
  end(trailers: boolean): ErrorKind | null;
  /**
   * A streamed answer's first message: when it came (`performance.now()`), read once the answer ended
   * well; NaN or absent when the answer was no stream (fewer than two messages), so only streams record it.
   */
  readonly firstMessageMs?: number;
}
