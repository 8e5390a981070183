/**
 * @module
 * What a protocol carried on HTTP/2 streams judges of each answer beyond HTTP (gRPC's is grpc/answer.ts).
 * Types only, so h2/ and the protocols on it need not import each other.
 */
import type { ErrorKind } from "../../results/mod.ts";
import type { FieldBytesSink } from "../../http2/hpack/field_rules.ts";

/** One stream's judge of its answer, reused for every request the stream carries. */
export interface StreamAnswer {
  /** Takes the fields of every header block of the answer, trailers included, as the decoder reads them. */
  readonly fields: FieldBytesSink;
  /** Why the last answer failed (valid when a step returned a kind). */
  readonly message: string;
  /** The status slot of the server's failing status (a gRPC status other than OK); 0 for a broken answer. */
  readonly statusSlot: number;
  /** A request starts on the stream: nothing of its answer seen yet; `oneMessage`: a unary gRPC call's. */
  start(oneMessage: boolean): void;
  /** The final head came with HTTP `status`; `endStream`: it also ended the answer (trailers-only). */
  head(status: number, endStream: boolean): ErrorKind | null;
  /** A DATA frame's payload `buf[from, to)` (padding removed). */
  data(buf: Uint8Array, from: number, to: number): ErrorKind | null;
  /** The answer ended, by trailers when `trailers`, else by END_STREAM on DATA; null: a success. */
  end(trailers: boolean): ErrorKind | null;
  /** A streamed answer's first message time; NaN or absent when it was no stream. */
  readonly firstMessageMs?: number;
}
