/**
 * @module
 * The line states of HTTP/1.1 framing (empty lines, start line, field lines, chunk-size lines), driven by
 * message_framer.ts. A CR without LF is an error, as is a bare LF in a chunked body or a `verbatim` head.
 */
import { BAD_CHUNK_LINE, ChunkLine } from "./chunk_line.ts";
import { BAD_FIELD_LINE, FieldLines } from "./field_lines.ts";
import { BAD_LINE, StartLine } from "./start_line.ts";

/** `scan` found bytes that break the framing rules; `error` says which. */
export const BAD_HEAD_LINE = -2;

/** Empty lines ignored before a start line (RFC 9112 2.2 asks servers to ignore at least one). */
export const MAX_EMPTY_LINES = 8;

/** What the last `scan` stopped after: nothing yet, a head, the trailers, a chunk-size line. */
export const EV_NONE = 0, EV_HEAD = 1, EV_TRAILERS = 2, EV_CHUNK_LINE = 3;

const CR = 13, LF = 10, SP = 32, HTAB = 9;

// Line states; S_IDLE: between heads, while the framer counts body bytes.
const S_START = 0; // empty lines before a start line
const S_START_LINE = 1; // start_line.ts
const S_FIELD_START = 2;
const S_NAME = 3; // field_lines.ts
const S_VALUE = 4; // field_lines.ts
const S_CR = 5; // a CR: LF must follow
const S_CHUNK_LINE = 6; // chunk_line.ts
const S_IDLE = 7;

// What a line end (LF) completes.
const L_EMPTY = 0, L_START = 1, L_FIELD = 2, L_HEAD_END = 3, L_CHUNK_SIZE = 4;

/** The lines of one head after another (and of chunked framing); `startHead()` before each head. */
export class HeadLines {
  /** 0 for a request. */
  status = 0;
  http10 = false;
  headMethod = false;
  leadingBytes = 0;
  /** Valid when the request line came in one `scan`. */
  targetStart = 0;
  targetEnd = 0;
  chunkSize = 0;
  event = EV_NONE;
  /** A constant string: no allocation. */
  error = "";
  readonly fields: FieldLines;
  readonly #line: StartLine;
  readonly #chunkLine = new ChunkLine();
  readonly #request: boolean;
  readonly #verbatim: boolean;
  #state = S_IDLE;
  #lineKind = L_EMPTY;
  #emptyLines = 0;

  constructor(request: boolean, verbatim: boolean) {
    this.#request = request;
    this.#verbatim = verbatim;
    this.#line = new StartLine(request);
    this.fields = new FieldLines(verbatim);
  }

  startHead(): void {
    this.#state = S_START;
    this.#lineKind = L_EMPTY;
    this.event = EV_NONE;
    this.#emptyLines = 0;
    this.fields.reset();
    this.http10 = false;
    this.status = 0;
    this.headMethod = false;
    this.leadingBytes = 0;
  }

  expectChunkLine(): void {
    this.#chunkLine.reset();
    this.#state = S_CHUNK_LINE;
  }

  get atStart(): boolean {
    return this.#state === S_START;
  }

  /** Line states over buf[i, stop): where it stopped (`event` says after what), or BAD_HEAD_LINE. */
  scan(buf: Uint8Array, i: number, stop: number): number {
    this.event = EV_NONE;
    while (i < stop && this.event === EV_NONE) {
      switch (this.#state) {
        case S_START:
          i = this.#beforeStartLine(buf[i], i);
          break;
        case S_START_LINE:
          i = this.#startLine(buf, i, stop);
          break;
        case S_FIELD_START:
          i = this.#lineStart(buf, i, stop);
          break;
        case S_NAME:
          i = this.#name(buf, i, stop);
          break;
        case S_VALUE:
          i = this.#value(buf, i, stop);
          break;
        case S_CR:
          if (buf[i] !== LF) return this.#fail("bare CR");
          if (this.#lineKind === L_EMPTY) this.leadingBytes++;
          i = this.#lineEnd(this.#lineKind) ? i + 1 : BAD_HEAD_LINE;
          break;
        case S_CHUNK_LINE:
          i = this.#chunkSizeLine(buf, i, stop);
          break;
        default:
          return i; // not a line state (reached only through a bug): hand back to the framer
      }
      if (i === BAD_HEAD_LINE) return BAD_HEAD_LINE;
    }
    return i;
  }

  #fail(message: string): number {
    this.error = message;
    return BAD_HEAD_LINE;
  }

  /** Byte `c` before a start line: an empty line's CR or LF is skipped; anything else starts the line. */
  #beforeStartLine(c: number, i: number): number {
    if (c === CR || c === LF) {
      this.leadingBytes++;
      return this.#endOfLine(c, L_EMPTY) ? i + 1 : BAD_HEAD_LINE;
    }
    this.#line.reset();
    this.#state = S_START_LINE;
    return i;
  }

  #startLine(buf: Uint8Array, i: number, stop: number): number {
    const line = this.#line;
    const end = line.scan(buf, i, stop);
    if (end === BAD_LINE) return this.#fail(line.error);
    if (end === stop) return stop;
    this.status = line.status;
    this.http10 = line.http10;
    this.headMethod = line.headMethod;
    this.targetStart = line.targetStart;
    this.targetEnd = line.targetEnd;
    return this.#lineEndAt(buf, end, stop, L_START);
  }

  /** The first byte of a line after the start line: the head's (or trailers') end, an obs-fold, or a name. */
  #lineStart(buf: Uint8Array, i: number, stop: number): number {
    const c = buf[i];
    if (c === CR || c === LF) return this.#lineEndAt(buf, i, stop, L_HEAD_END);
    const lines = this.fields;
    if (c === SP || c === HTAB) {
      if (!lines.fold()) return this.#fail(lines.error);
      this.#state = S_VALUE;
      return i + 1;
    }
    if (!lines.startName(c)) return this.#fail(lines.error);
    this.#state = S_NAME;
    return this.#name(buf, i, stop);
  }

  #name(buf: Uint8Array, i: number, stop: number): number {
    const colon = this.fields.name(buf, i, stop);
    if (colon === BAD_FIELD_LINE) return this.#fail(this.fields.error);
    if (colon === stop) return stop;
    this.#state = S_VALUE;
    return this.#value(buf, colon + 1, stop);
  }

  #value(buf: Uint8Array, i: number, stop: number): number {
    i = this.fields.value(buf, i, stop);
    if (i === BAD_FIELD_LINE) return this.#fail(this.fields.error);
    return i === stop ? i : this.#lineEndAt(buf, i, stop, L_FIELD);
  }

  /** Chunk-size line bytes through the line end, which sets how much data follows. */
  #chunkSizeLine(buf: Uint8Array, i: number, stop: number): number {
    const line = this.#chunkLine;
    const end = line.scan(buf, i, stop);
    if (end === BAD_CHUNK_LINE) return this.#fail(line.error);
    if (end === stop) return stop;
    this.chunkSize = line.size;
    return this.#lineEndAt(buf, end, stop, L_CHUNK_SIZE);
  }

  /** A line of `kind` ends at buf[end]: a whole CRLF at once (the common end, not through S_CR). */
  #lineEndAt(buf: Uint8Array, end: number, stop: number, kind: number): number {
    if (buf[end] === CR && end + 1 < stop && buf[end + 1] === LF) {
      return this.#lineEnd(kind) ? end + 2 : BAD_HEAD_LINE;
    }
    return this.#endOfLine(buf[end], kind) ? end + 1 : BAD_HEAD_LINE;
  }

  /** `c` ends the line's content: CR (LF must follow) or LF (bare: tolerated in a head unless verbatim). */
  #endOfLine(c: number, kind: number): boolean {
    this.#lineKind = kind;
    if (c === CR) {
      this.#state = S_CR;
      return true;
    }
    if (c !== LF) {
      this.error = kind === L_START
        ? (this.#request ? "bad request line" : "bad status line")
        : "control byte in a line";
      return false;
    }
    if (this.#verbatim) {
      this.error = "bare LF line end";
      return false;
    }
    if (kind === L_CHUNK_SIZE || this.fields.inTrailers) {
      // RFC 9112 2.2 allows a bare LF in a head; chunked coding (7.1) is CRLF only, as in llhttp and nginx.
      this.error = "bare LF in a chunked body";
      return false;
    }
    return this.#lineEnd(kind);
  }

  #lineEnd(kind: number): boolean {
    this.#lineKind = kind;
    switch (kind) {
      case L_EMPTY:
        this.#state = S_START;
        if (++this.#emptyLines > MAX_EMPTY_LINES) {
          this.error = "too many empty lines before the start line";
          return false;
        }
        return true;
      case L_START:
      case L_FIELD:
        this.#state = S_FIELD_START;
        return true;
      case L_HEAD_END:
        this.#state = S_IDLE;
        this.event = this.fields.inTrailers ? EV_TRAILERS : EV_HEAD;
        if (this.fields.endField()) return true;
        this.error = this.fields.error;
        return false;
      default: // L_CHUNK_SIZE
        this.event = EV_CHUNK_LINE;
        if (this.chunkSize === 0) {
          this.fields.startTrailers();
          this.#state = S_FIELD_START;
        } else this.#state = S_IDLE;
        return true;
    }
  }
}
