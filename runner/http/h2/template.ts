/**
 * @module
 * HTTP/2 requests with `{{ name }}` placeholders: fields filled per request as literals without indexing
 * (RFC 7541 6.2.2), so no dynamic table changes. A value with CR, LF, NUL or edge whitespace is refused.
 */
import { concatBytes, copyBytes } from "../../../system/copy_bytes.ts";
import { literalNameBytes, writeInt as writeHpackInt } from "../../../http2/hpack/encoder.ts";
import {
  CONTINUATION,
  DEFAULT_MAX_FRAME_BYTES,
  FLAG_END_HEADERS,
  FLAG_END_STREAM,
  FRAME_HEADER_BYTES,
  HEADERS,
  writeFrameHeader,
} from "../../../http2/frames.ts";
import {
  bodyPartsOf,
  hasPlaceholder,
  type Parts,
  partsOf,
  upperBound,
  writeInt,
  writeParts,
} from "../template.ts";
import { bodyTooBigMessage, fieldPlace, MAX_BODY_BYTES, urlPlace } from "../fill_values.ts";
import {
  grpcBodyBound,
  type GrpcBodyTemplate,
  type RefusalKind,
  writeGrpcBody,
} from "../protobuf_template.ts";

/** A field whose value has placeholders: its literal's name part, then the value's parts. */
interface TemplatedField {
  readonly name: Uint8Array;
  readonly value: Parts;
  /** The count message when the filled value starts or ends with a space or tab. */
  readonly padded: string;
}

export interface H2Template {
  /** Fixed bytes around the fields: `pieces[k]`, field k, ..., `pieces[fields.length]`. */
  readonly pieces: readonly Uint8Array[];
  readonly fields: readonly TemplatedField[];
  readonly body: Parts;
  /** Add `content-length` from the filled body (a body, or a method that carries one). */
  readonly autoLength: boolean;
  readonly head: boolean;
  /** A gRPC call's messages, filled and encoded per call in place of `body` (protobuf_template.ts). */
  grpc: GrpcBodyTemplate | null;
  oneMessage: boolean;
}

/** Most bytes an HPACK length prefix takes here (a length below 2^35). */
const MAX_PREFIX_BYTES = 6;
/** `content-length` as a literal without indexing naming its static entry (28). */
const CONTENT_LENGTH = literalNameBytes("content-length");
/** `cookie` likewise (its static entry, 32): a flow step's cookies from the session's jar. */
const COOKIE = literalNameBytes("cookie");

/** The template of a request's `fields` (pseudo-headers first, lower-case) and body. */
export function buildH2Template(
  fields: ReadonlyArray<readonly [string, string]>,
  body: Uint8Array | undefined,
  autoLength: boolean,
  indexOf: (name: string) => number,
  encodeFixed: (name: string, value: string) => Uint8Array,
): H2Template {
  const pieces: Uint8Array[] = [];
  const templated: TemplatedField[] = [];
  let fixed: Uint8Array[] = [];
  for (const [name, value] of fields) {
    if (!hasPlaceholder(value)) {
      fixed.push(encodeFixed(name, value));
      continue;
    }
    pieces.push(concatBytes(fixed));
    fixed = [];
    const place = (offset: number, raw: boolean) =>
      name === ":path" ? urlPlace(value, offset, raw) : fieldPlace(name);
    const padded = `header "${name}" as filled starts or ends with a space or tab: not sent`;
    templated.push({ name: literalNameBytes(name), value: partsOf(value, indexOf, place), padded });
  }
  pieces.push(concatBytes(fixed));
  const head = fields.some(([name, value]) => name === ":method" && value === "HEAD");
  return {
    pieces,
    fields: templated,
    body: bodyPartsOf(body, indexOf),
    autoLength,
    head,
    grpc: null,
    oneMessage: false,
  };
}

/** Bytes of an HPACK string length (a 7-bit prefix, `writeHpackInt`'s form) of `n`. */
function lengthBytes(n: number): number {
  if (n < 127) return 1;
  let bytes = 2;
  for (n -= 127; n >= 128; n = Math.floor(n / 128)) bytes++;
  return bytes;
}

/** A space or tab: no field value starts or ends with one (RFC 9113 8.2.1). */
function isBlank(b: number): boolean {
  return b === 32 || b === 9;
}

/** `writeStringParts` refused a value that starts or ends with a space or tab. */
const PADDED = -1 << 30;

/** A string literal of `parts` filled at `at`; the end, or negative for a refused value (or `PADDED`). */
function writeStringParts(
  buf: Uint8Array,
  at: number,
  parts: Parts,
  values: ReadonlyArray<Uint8Array>,
): number {
  const end = writeParts(buf, at + 1, parts, values);
  if (end < 0) return end;
  if (end > at + 1 && (isBlank(buf[at + 1]) || isBlank(buf[end - 1]))) return PADDED;
  const length = end - at - 1;
  const prefix = lengthBytes(length);
  if (prefix > 1) buf.copyWithin(at + prefix, at + 1, end);
  writeHpackInt(buf, at, length, 7, 0);
  return at + prefix + length;
}

/** A request as the streams send it (h2/request.ts `H2Request`'s shape), filled into a slot's buffers. */
class FilledH2Request {
  frames: Uint8Array = EMPTY;
  frameStarts: Uint32Array = ONE_START;
  body: Uint8Array | null = null;
  readonly template = null;
  head = false;
  oneMessage = false;
}

const EMPTY = new Uint8Array(0);
const ONE_START = new Uint32Array(1);

/** Lengths up to this keep their view; longer ones (rare: a big body) get a new view when theirs changes. */
const KEPT_VIEW_BYTES = 1 << 16;

/** Views `buf[0, length)` of one growing buffer, one per length, dropped when the buffer is replaced. */
class LengthViews {
  #buf: Uint8Array = EMPTY;
  #views: Uint8Array[] = [];
  #last: Uint8Array = EMPTY;

  of(buf: Uint8Array, length: number): Uint8Array {
    if (buf !== this.#buf) {
      this.#buf = buf;
      this.#views = [];
    }
    if (this.#last.buffer === buf.buffer && this.#last.length === length) return this.#last;
    this.#last = length > KEPT_VIEW_BYTES
      ? buf.subarray(0, length)
      : this.#views[length] ??= buf.subarray(0, length);
    return this.#last;
  }
}

export class H2TemplateWriter {
  #block = EMPTY;
  #body = EMPTY;
  #starts = ONE_START;
  readonly #filled = new FilledH2Request();
  readonly #blockViews = new LengthViews();
  readonly #bodyViews = new LengthViews();
  /** Why the last `fill` returned null: the refused field's count message, and its error kind. */
  refused = "";
  refusedKind: RefusalKind = "bad-value";

  /** `request` with `values` (and a flow's `cookie`): HEADERS (stream id 0) and body; null when refused. */
  fill(
    t: H2Template,
    values: ReadonlyArray<Uint8Array>,
    cookie: Uint8Array | null = null,
  ): FilledH2Request | null {
    const filled = this.#filled;
    filled.head = t.head;
    filled.oneMessage = t.oneMessage;
    const bodyBytes = t.grpc === null ? this.#fillBody(t.body, values) : this.#fillGrpc(t.grpc, values);
    if (bodyBytes < 0) return null;
    filled.body = bodyBytes === 0 ? null : this.#bodyViews.of(this.#body, bodyBytes);
    let bound = FRAME_HEADER_BYTES + CONTENT_LENGTH.length + 1 + 16;
    for (const piece of t.pieces) bound += piece.length;
    for (const field of t.fields) {
      bound += field.name.length + MAX_PREFIX_BYTES + upperBound(field.value, values);
    }
    if (cookie !== null) bound += COOKIE.length + MAX_PREFIX_BYTES + cookie.length;
    bound += Math.ceil(bound / DEFAULT_MAX_FRAME_BYTES) * FRAME_HEADER_BYTES;
    if (this.#block.length < bound) {
      this.#block = new Uint8Array(Math.max(bound, 2 * this.#block.length, 1024));
    }
    const buf = this.#block;
    let at = FRAME_HEADER_BYTES;
    const { pieces, fields } = t;
    for (let k = 0; k < fields.length; k++) {
      at = copyBytes(buf, at, pieces[k], 0, pieces[k].length);
      at = copyBytes(buf, at, fields[k].name, 0, fields[k].name.length);
      const end = writeStringParts(buf, at, fields[k].value, values);
      if (end < 0) {
        this.refused = end === PADDED ? fields[k].padded : fields[k].value.messages[-1 - end];
        this.refusedKind = "bad-value";
        return null;
      }
      at = end;
    }
    const last = pieces[fields.length];
    at = copyBytes(buf, at, last, 0, last.length);
    if (cookie !== null) {
      at = copyBytes(buf, at, COOKIE, 0, COOKIE.length);
      at = writeHpackInt(buf, at, cookie.length, 7, 0);
      at = copyBytes(buf, at, cookie, 0, cookie.length);
    }
    if (t.autoLength) {
      at = copyBytes(buf, at, CONTENT_LENGTH, 0, CONTENT_LENGTH.length);
      const end = writeInt(buf, at + 1, bodyBytes);
      buf[at] = end - at - 1;
      at = end;
    }
    this.#frame(at - FRAME_HEADER_BYTES, bodyBytes === 0);
    return filled;
  }

  #fillBody(body: Parts, values: ReadonlyArray<Uint8Array>): number {
    const need = upperBound(body, values);
    if (need === 0) return 0;
    if (need > MAX_BODY_BYTES) {
      this.refused = bodyTooBigMessage(need);
      this.refusedKind = "bad-value";
      return -1;
    }
    if (this.#body.length < need) this.#body = new Uint8Array(Math.max(need, 2 * this.#body.length, 256));
    return writeParts(this.#body, 0, body, values);
  }

  /** Fills a gRPC call's messages into the body buffer; returns their length, or -1 (`refused` says why). */
  #fillGrpc(t: GrpcBodyTemplate, values: ReadonlyArray<Uint8Array>): number {
    const need = grpcBodyBound(t, values);
    if (this.#body.length < need) this.#body = new Uint8Array(Math.max(need, 2 * this.#body.length, 256));
    return writeGrpcBody(this.#body, 0, t, values, this);
  }

  #frame(blockBytes: number, endStream: boolean): void {
    const count = headerFrameCount(blockBytes);
    if (this.#starts.length !== count) this.#starts = new Uint32Array(count);
    const bytes = frameHeaders(this.#block, blockBytes, endStream, this.#starts);
    this.#filled.frames = this.#blockViews.of(this.#block, bytes);
    this.#filled.frameStarts = this.#starts;
  }
}

/** How many frames (HEADERS, then CONTINUATION) carry a header block of `blockBytes`. */
export function headerFrameCount(blockBytes: number): number {
  return Math.max(1, Math.ceil(blockBytes / DEFAULT_MAX_FRAME_BYTES));
}

/** Frames the block at `buf[FRAME_HEADER_BYTES..]` in place, each frame's offset in `starts`; its length. */
export function frameHeaders(
  buf: Uint8Array,
  bytes: number,
  endStream: boolean,
  starts: Uint32Array,
): number {
  const count = starts.length;
  const step = DEFAULT_MAX_FRAME_BYTES + FRAME_HEADER_BYTES;
  for (let k = count - 1; k > 0; k--) {
    const from = FRAME_HEADER_BYTES + k * DEFAULT_MAX_FRAME_BYTES;
    const to = Math.min(FRAME_HEADER_BYTES + bytes, from + DEFAULT_MAX_FRAME_BYTES);
    buf.copyWithin(k * step + FRAME_HEADER_BYTES, from, to);
  }
  for (let k = 0; k < count; k++) {
    const size = Math.min(DEFAULT_MAX_FRAME_BYTES, bytes - k * DEFAULT_MAX_FRAME_BYTES);
    const flags = (k === count - 1 ? FLAG_END_HEADERS : 0) | (k === 0 && endStream ? FLAG_END_STREAM : 0);
    starts[k] = k * step;
    writeFrameHeader(buf, k * step, size, k === 0 ? HEADERS : CONTINUATION, flags, 0);
  }
  return bytes + count * FRAME_HEADER_BYTES;
}
