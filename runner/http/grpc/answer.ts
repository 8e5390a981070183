/**
 * @module
 * A gRPC call's answer judged on its HTTP/2 stream: its head, its length-prefixed messages within the
 * receive cap and its `grpc-status`. HOT PATH: one per slot, reset per call; messages are never copied.
 */
import type { ErrorKind } from "../../../results/mod.ts";
import { GRPC_ERROR_KINDS, GRPC_STATUS_SLOTS_FROM } from "../../../results/schema/keys.ts";
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  MessageReader,
  READ_NO_ENCODING,
  READ_OK,
  READ_TOO_BIG,
} from "../../../grpc/framing.ts";
import { callOutcome, decodeGrpcMessage, GrpcFields, STATUS_GARBLED } from "../../../grpc/trailers.ts";
import { GRPC_CANCELLED, GRPC_CODE_NAMES, GRPC_OK, GRPC_UNKNOWN } from "../../../grpc/status.ts";
import type { StreamAnswer } from "../stream_answer.ts";
import { constants, gunzipSync, inflateRawSync } from "node:zlib";

const NO_TRAILERS = "the stream ended without trailers (no grpc-status)";
const BAD_FLAG = "a message prefix whose compressed flag is neither 0 nor 1";
const CUT_SHORT = "the stream ended inside a message (its length prefix promised more)";
const NO_ENCODING = "a compressed message without grpc-encoding";
const TWO_MESSAGES = "a unary call's answer with more than one message";

/** What the gRPC room needs of a run: the cap of a received message. */
export interface GrpcRun {
  readonly maxReceiveBytes: number;
  readonly streamIntervalMs?: number;
  readonly streamEndMessages?: number;
  readonly streamEndMs?: number;
}

/** One stream slot's judge of its gRPC answers. */
export class GrpcAnswer implements StreamAnswer {
  message = "";
  statusSlot = 0;
  /** When a streamed answer's first message came (`performance.now()`); NaN before it, or for a unary one. */
  firstMessageMs = Number.NaN;
  /** The gRPC fields of the answer's header blocks, gathered as the HPACK decoder hands them over. */
  readonly fields = new GrpcFields();
  readonly #reader: MessageReader;
  #httpStatus = 0;
  /** The call is unary: a second message breaks its answer (grpc-go and grpc-js fail it INTERNAL). */
  #oneMessage = false;
  /** What inflating the last compressed message found wrong, or null. */
  #inflateFailed: ErrorKind | null = null;
  /** Inflates each compressed message of a gzip answer (the reader's sink while the answer is gzip). */
  readonly #inflate = (payload: Uint8Array, compressed: boolean): void => {
    if (!compressed || this.#inflateFailed !== null) return;
    const encoding = this.fields.encoding;
    if (encoding !== "gzip") {
      this.message = `a message compressed with ${JSON.stringify(encoding.slice(0, 40))}, which loadlab ` +
        "does not inflate (it asks for gzip only)";
      this.#inflateFailed = "grpc-protocol";
      return;
    }
    const cap = this.#reader.maxBytes;
    try {
      gunzipSync(payload, { maxOutputLength: cap });
    } catch (err) {
      const tooBig = (err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE";
      this.message = tooBig
        ? `a gzip message of ${payload.length} bytes inflating past the ${cap}-byte receive cap`
        : gzipFault(payload, cap, (err as Error).message);
      this.#inflateFailed = tooBig ? "grpc-too-big" : "grpc-protocol";
    }
  };

  /** A server stream is cancelled at this many messages, or at its first this long after its start. */
  readonly #endMessages: number;
  readonly #endMs: number;
  #endAtMs = Infinity;

  constructor(run: GrpcRun = { maxReceiveBytes: DEFAULT_MAX_MESSAGE_BYTES }) {
    this.#reader = new MessageReader(run.maxReceiveBytes);
    [this.#endMessages, this.#endMs] = [run.streamEndMessages || Infinity, run.streamEndMs || Infinity];
  }

  get messages(): number {
    return this.#reader.messages;
  }

  start(oneMessage: boolean): void {
    this.#oneMessage = oneMessage;
    this.fields.reset();
    this.#reader.reset();
    this.#httpStatus = 0;
    this.message = "";
    this.statusSlot = 0;
    this.#inflateFailed = null;
    this.#reader.onMessage = null;
    this.firstMessageMs = Number.NaN;
    if (this.#endMs < Infinity) this.#endAtMs = performance.now() + this.#endMs;
  }

  head(status: number, endStream: boolean): ErrorKind | null {
    this.#httpStatus = status;
    const fields = this.fields;
    this.#reader.compressedAllowed = fields.encoding !== "";
    if (fields.encoding !== "") this.#reader.onMessage = this.#inflate;
    if (fields.grpcContentType || endStream) return null;
    // Not a gRPC answer: the HTTP status's code (a proxy's 503), or broken when it was 200.
    const code = callOutcome(fields, status);
    return code > 0 ? this.#failed(code, fields.message || this.#notGrpc()) : this.#broken(this.#notGrpc());
  }

  /** A head that is not a gRPC answer's: its HTTP status and content-type (gRPC's: its missing status). */
  #notGrpc(): string {
    const { contentType, grpcContentType, message } = this.fields;
    const { STATUS_CODES } = process.getBuiltinModule("node:http");
    const status = `HTTP status ${this.#httpStatus} (${STATUS_CODES[this.#httpStatus] ?? ""})`;
    if (grpcContentType) {
      return `${status}: trailers without grpc-status (grpc-message ${JSON.stringify(message)})`;
    }
    return `not gRPC: ${status}, content-type ${contentType === "" ? "none" : JSON.stringify(contentType)}`;
  }

  data(buf: Uint8Array, from: number, to: number): ErrorKind | null {
    const read = this.#reader.feed(buf, from, to);
    if (read === READ_OK) {
      if (this.#oneMessage && this.#reader.messages > 1) return this.#broken(TWO_MESSAGES);
      // The first message's time, read once per call: a server stream is timed to it and to its end.
      if (this.firstMessageMs !== this.firstMessageMs && this.#reader.messages > 0) {
        this.firstMessageMs = performance.now();
      }
      // A server stream's end (ghz's): our RST_STREAM CANCEL, as grpc-go words it.
      const n = this.#reader.messages;
      if (n >= this.#endMessages || (n > 0 && this.#endMs < Infinity && performance.now() >= this.#endAtMs)) {
        return this.#failed(GRPC_CANCELLED, "context canceled");
      }
      return this.#inflateFailed;
    }
    if (read === READ_TOO_BIG) {
      const cap = this.#reader.maxBytes;
      this.message = `a message of ${this.#reader.statedBytes} bytes (over the ${cap}-byte receive cap)`;
      return "grpc-too-big";
    }
    return this.#broken(read === READ_NO_ENCODING ? NO_ENCODING : `${BAD_FLAG}: ${this.#reader.statedFlag}`);
  }

  end(trailers: boolean): ErrorKind | null {
    if (!trailers) return this.#broken(NO_TRAILERS);
    const fields = this.fields;
    const code = callOutcome(fields, this.#httpStatus);
    // grpc-go reads no grpc-status as UNKNOWN with the grpc-message: it is kept for its words.
    if (code < 0) {
      return this.#broken(
        code === STATUS_GARBLED
          ? `a grpc-status that is not a number: "${fields.garbledStatus}"`
          : `trailers without grpc-status (grpc-message ${
            JSON.stringify(decodeGrpcMessage(fields.message))
          })`,
      );
    }
    if (code !== GRPC_OK) return this.#failed(code, fields.status < 0 ? this.#notGrpc() : fields.message);
    if (this.#reader.midMessage) return this.#broken(CUT_SHORT);
    if (this.#reader.messages < 2) this.firstMessageMs = Number.NaN; // not a stream: its end is its time
    return null;
  }

  /** A call ended with gRPC code `code`; one past 16 counts as UNKNOWN, its message naming its number. */
  #failed(code: number, text = this.fields.message): ErrorKind {
    const words = text === "" ? "" : decodeGrpcMessage(text);
    const past = code >= GRPC_CODE_NAMES.length;
    this.message = past ? `grpc-status ${code}${words && ": "}${words}` : words || GRPC_CODE_NAMES[code];
    this.statusSlot = GRPC_STATUS_SLOTS_FROM + (past ? GRPC_UNKNOWN : code);
    return GRPC_ERROR_KINDS[(past ? GRPC_UNKNOWN : code) + 1];
  }

  #broken(why: string): ErrorKind {
    this.message = why;
    return "grpc-protocol";
  }
}

/** What is wrong with `gz`, refused by zlib with `why`, at the byte Go's flate names. */
function gzipFault(gz: Uint8Array, cap: number, why: string): string {
  if (!/^(invalid|too many) /.test(why)) {
    return `a compressed message of ${gz.length} bytes that is not gzip (${why})`;
  }
  const flags = gz[3];
  let start = 10 + (flags & 4 ? 2 + (gz[10] | (gz[11] << 8)) : 0);
  for (const bit of [8, 16]) if (flags & bit) start = gz.indexOf(0, start) + 1;
  if (flags & 2) start += 2;
  const options = { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: cap };
  let [lo, hi] = [start, gz.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    try {
      inflateRawSync(gz.subarray(start, mid), options);
      lo = mid + 1;
    } catch {
      hi = mid;
    }
  }
  return `a gzip message of ${gz.length} bytes corrupt before deflate byte ${lo - start} (${why})`;
}
