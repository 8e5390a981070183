/**
 * @module
 * HTTP/1.1 message framing (RFC 9112) for both sides of loadlab: the load engine's response parser and
 * the balancer's forwarder use this one rule book, so they agree on where every message ends. It scans
 * bytes as they arrive, any split across reads giving the same outcome, and holds no bytes between
 * calls: this state machine walks the lines of a message and counts its body bytes; the start line
 * (start_line.ts), the field lines (field_lines.ts, the framing fields' values in framing_fields.ts) and
 * chunk-size lines (chunk_line.ts) are parsed by their own scanners, byte by byte, with fast paths for
 * what came whole, and the framing of each head is decided by body_framing.ts (RFC 9112 6.3).
 * HOT PATH: no strings or objects per message; errors are constant strings.
 *
 * Strict, because a reader that frames a message differently from its sender can be steered: a CR not
 * followed by LF, or any other control byte but HTAB, in a start line, field line or chunk line is an
 * error; chunk data must end with CRLF.
 *
 * Tolerated, as robust user agents do: up to 8 empty lines before a start line; a bare LF as the end of
 * a head's line (never in a chunked body: chunk lines, trailers and its last line end in CRLF, RFC 9112 7.1).
 * A forwarder (`verbatim`) passes heads on as they are, so it gets none of the tolerances that would need
 * a rewrite: bare LF, obs-fold and Transfer-Encoding with Content-Length or in HTTP/1.0 are errors there.
 */
import {
  bodyFraming,
  Framing,
  framingCloses,
  framingRefusal,
  isInterim,
  keepAliveAsked,
} from "./body_framing.ts";
import { BAD_CHUNK_LINE, ChunkLine } from "./chunk_line.ts";
import { BAD_FIELD_LINE, FieldLines } from "./field_lines.ts";
import { BAD_LINE, StartLine } from "./start_line.ts";

/** `feed` needs more bytes. */
export const NEED_MORE = -1;
/** `feed` found bytes that break the framing rules; `error` says which. */
export const PARSE_ERROR = -2;

/** Empty lines ignored before a start line (RFC 9112 2.2 asks servers to ignore at least one). */
export const MAX_EMPTY_LINES = 8;
const CR = 13, LF = 10, SP = 32, HTAB = 9;

// States. Below S_BODY: line states, which count against the head cap.
const S_START = 0; // empty lines before a start line
const S_START_LINE = 1; // start_line.ts
const S_FIELD_START = 2;
const S_NAME = 3; // field_lines.ts
const S_VALUE = 4; // field_lines.ts
const S_CR = 5; // a CR: LF must follow
const S_CHUNK_LINE = 6; // chunk_line.ts
const S_BODY = 7;
const S_CHUNK_DATA = 8;
const S_DATA_CR = 9;
const S_DATA_LF = 10;
const S_UNTIL_CLOSE = 11;
const S_DONE = 12;

// What a line end (LF) completes.
const L_EMPTY = 0, L_START = 1, L_FIELD = 2, L_HEAD_END = 3, L_CHUNK_SIZE = 4;
// What a line end did, for `feed`: nothing to report, a head ended (or the trailers, ending the
// message), a chunk-size line ended.
const EV_NONE = 0, EV_HEAD = 1, EV_CHUNK_LINE = 2;

export interface FramerOptions {
  /** Parse requests (the balancer's client side) instead of responses. */
  request?: boolean;
  /** Cap of a head (start line, fields, interim heads; then each chunk-size line, then the trailers). */
  maxHeadBytes: number;
  /** Error when the cap is passed (a constant string, built once). */
  headTooLarge?: string;
  /** Heads are forwarded as they are: bare LF, obs-fold and TE with CL or in HTTP/1.0 are errors. */
  verbatim?: boolean;
  /** `feed` also returns at the end of every head (interim ones too), not only at a message's end. */
  stopAtHeads?: boolean;
}

/** Frames one message after another on one connection; `start()` before each. */
export class MessageFramer {
  /** Status code of the last head (0 for a request). */
  status = 0;
  /** False when the message closes its connection (asked to, HTTP/1.0, until-close, 101, TE with CL). */
  keepAlive = true;
  framing: Framing = Framing.None;
  /** Body bytes when framing is Length. */
  contentLength = 0;
  /** Body bytes of the message so far (chunk data without its framing; until-close bytes as they come). */
  bodyBytes = 0;
  /** True once the message is complete (false after an interim head when `stopAtHeads`). */
  done = false;
  /** A request whose method is HEAD. */
  headMethod = false;
  /** Bytes of empty lines skipped before the start line of the last head. */
  leadingBytes = 0;
  /** Buffer offsets of a request-target (valid when the request line came in one `feed`). */
  targetStart = 0;
  targetEnd = 0;
  /** Why `feed` returned PARSE_ERROR (a constant string: no allocation). */
  error = "";
  readonly #fieldLines: FieldLines;
  readonly #line: StartLine;
  readonly #chunkLine = new ChunkLine();
  readonly #request: boolean;
  readonly #verbatim: boolean;
  readonly #stopAtHeads: boolean;
  readonly #maxHeadBytes: number;
  readonly #headTooLarge: string;
  #state = S_DONE;
  #lineKind = L_EMPTY;
  #event = EV_NONE;
  #emptyLines = 0;
  #isHead = false;
  #http10 = false;
  /** Bytes left of the body (Length) or of the current chunk's data. */
  #remaining = 0;
  #headBytes = 0;

  constructor(options: FramerOptions) {
    this.#request = options.request ?? false;
    this.#line = new StartLine(this.#request);
    this.#verbatim = options.verbatim ?? false;
    this.#fieldLines = new FieldLines(this.#verbatim);
    this.#stopAtHeads = options.stopAtHeads ?? false;
    this.#maxHeadBytes = options.maxHeadBytes;
    this.#headTooLarge = options.headTooLarge ?? "head too large";
  }

  /** Prepares for the next message; `isHead`: the response answers HEAD (no body whatever it says). */
  start(isHead = false): void {
    this.#isHead = isHead;
    this.#headBytes = 0;
    this.keepAlive = true;
    this.done = false;
    this.error = "";
    this.bodyBytes = 0;
    this.#startHead();
  }

  /** Prepares to find the end of a chunked body whose first chunk-size line is next (a forwarder's relay). */
  startChunkedBody(): void {
    this.start(false);
    this.#expectChunkLine();
  }

  /** True once some byte of the current message has been seen. */
  get started(): boolean {
    return this.#headBytes > 0 || this.#state !== S_START;
  }

  /** Bytes held between calls: none, whatever was fed (every state is a few numbers). */
  get bufferedBytes(): number {
    return 0;
  }

  /**
   * Consumes `buf[from, to)`. Returns the offset just past the message's end (bytes after it belong to
   * the next message), or past a head's end when `stopAtHeads`; NEED_MORE when all bytes were consumed;
   * or PARSE_ERROR.
   */
  feed(buf: Uint8Array, from: number, to: number): number {
    let i = from;
    while (i < to) {
      const state = this.#state;
      if (state < S_BODY) {
        const room = this.#maxHeadBytes - this.#headBytes;
        const stop = to - i > room ? i + room : to;
        const j = this.#lines(buf, i, stop);
        if (j === PARSE_ERROR) return PARSE_ERROR;
        this.#headBytes += j - i;
        i = j;
        const event = this.#event;
        this.#event = EV_NONE;
        if (event === EV_NONE) {
          if (i === stop && stop < to) return this.#fail(this.#headTooLarge);
        } else if (this.done || (event === EV_HEAD && this.#stopAtHeads)) return i;
        else if (event === EV_CHUNK_LINE) this.#headBytes = 0; // the cap applies per chunk-size line, then to the trailers
        continue;
      }
      if (state === S_BODY || state === S_CHUNK_DATA) {
        const take = Math.min(to - i, this.#remaining);
        i += take;
        this.#remaining -= take;
        this.bodyBytes += take;
        if (this.#remaining > 0) continue;
        if (state === S_BODY) return this.#finish(i);
        this.#state = S_DATA_CR;
      } else if (state === S_DATA_CR) {
        if (buf[i++] !== CR) return this.#fail("chunk data not followed by CRLF");
        this.#state = S_DATA_LF;
      } else if (state === S_DATA_LF) {
        if (buf[i++] !== LF) return this.#fail("chunk data not followed by CRLF");
        this.#expectChunkLine();
      } else if (state === S_UNTIL_CLOSE) {
        this.bodyBytes += to - i;
        return NEED_MORE;
      } else return this.#fail("data after the end of a message");
    }
    return NEED_MORE;
  }

  /** At EOF: true when the current message is complete because it is framed by the close. */
  completesAtEof(): boolean {
    if (this.#state !== S_UNTIL_CLOSE) return false;
    this.#state = S_DONE;
    this.done = true;
    return true;
  }

  #startHead(): void {
    this.#state = S_START;
    this.#lineKind = L_EMPTY;
    this.#event = EV_NONE;
    this.#emptyLines = 0;
    this.#fieldLines.reset();
    this.#http10 = false;
    this.status = 0;
    this.framing = Framing.None;
    this.contentLength = 0;
    this.headMethod = false;
    this.leadingBytes = 0;
  }

  #expectChunkLine(): void {
    this.#chunkLine.reset();
    this.#state = S_CHUNK_LINE;
  }

  #finish(i: number): number {
    this.#state = S_DONE;
    this.done = true;
    return i;
  }

  #fail(message: string): number {
    this.error = message;
    return PARSE_ERROR;
  }

  /**
   * Line states over buf[i, stop): returns where it stopped (at `stop`, or just past a line that ended
   * a head, a chunk-size line or the message), or PARSE_ERROR. Each state's step returns the same.
   */
  #lines(buf: Uint8Array, i: number, stop: number): number {
    while (i < stop && this.#event === EV_NONE) {
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
          i = this.#lineEnd(this.#lineKind) ? i + 1 : PARSE_ERROR;
          break;
        case S_CHUNK_LINE:
          i = this.#chunkSizeLine(buf, i, stop);
          break;
        default:
          return i; // not a line state (reached only through a bug): hand back to `feed`
      }
      if (i === PARSE_ERROR) return PARSE_ERROR;
    }
    return i;
  }

  /** Byte `c` at `i` before a start line: an empty line's CR or LF is skipped; anything else starts the line. */
  #beforeStartLine(c: number, i: number): number {
    if (c === CR || c === LF) {
      this.leadingBytes++;
      return this.#endOfLine(c, L_EMPTY) ? i + 1 : PARSE_ERROR;
    }
    this.#line.reset();
    this.#state = S_START_LINE;
    return i;
  }

  /** Start line bytes: on through its line end, taking what it said. */
  #startLine(buf: Uint8Array, i: number, stop: number): number {
    const line = this.#line;
    const end = line.scan(buf, i, stop);
    if (end === BAD_LINE) return this.#fail(line.error);
    if (end === stop) return stop;
    this.status = line.status;
    this.#http10 = line.http10;
    this.headMethod = line.headMethod;
    this.targetStart = line.targetStart;
    this.targetEnd = line.targetEnd;
    if (buf[end] === CR && end + 1 < stop && buf[end + 1] === LF) {
      this.#state = S_FIELD_START; // the common line end, without a trip through S_CR
      return end + 2;
    }
    return this.#endOfLine(buf[end], L_START) ? end + 1 : PARSE_ERROR;
  }

  /** The first byte of a line after the start line: the head's (or trailers') end, an obs-fold, or a name. */
  #lineStart(buf: Uint8Array, i: number, stop: number): number {
    const c = buf[i];
    if (c === CR || c === LF) {
      if (c === CR && i + 1 < stop && buf[i + 1] === LF) {
        return this.#lineEnd(L_HEAD_END) ? i + 2 : PARSE_ERROR;
      }
      return this.#endOfLine(c, L_HEAD_END) ? i + 1 : PARSE_ERROR;
    }
    const lines = this.#fieldLines;
    if (c === SP || c === HTAB) {
      if (!lines.fold()) return this.#fail(lines.error);
      this.#state = S_VALUE;
      return i + 1;
    }
    if (!lines.startName(c)) return this.#fail(lines.error);
    this.#state = S_NAME;
    return this.#name(buf, i, stop);
  }

  /** Field name bytes, and on past its colon into the value. */
  #name(buf: Uint8Array, i: number, stop: number): number {
    const colon = this.#fieldLines.name(buf, i, stop);
    if (colon === BAD_FIELD_LINE) return this.#fail(this.#fieldLines.error);
    if (colon === stop) return stop;
    this.#state = S_VALUE;
    return this.#value(buf, colon + 1, stop);
  }

  /** Field value bytes, up to and through the line end. */
  #value(buf: Uint8Array, i: number, stop: number): number {
    i = this.#fieldLines.value(buf, i, stop);
    if (i === BAD_FIELD_LINE) return this.#fail(this.#fieldLines.error);
    if (i === stop) return i;
    const c = buf[i];
    if (c === CR && i + 1 < stop && buf[i + 1] === LF) {
      this.#state = S_FIELD_START; // the common line end, without a trip through S_CR
      return i + 2;
    }
    return this.#endOfLine(c, L_FIELD) ? i + 1 : PARSE_ERROR;
  }

  /** Chunk-size line bytes, up to and through the line end, which sets how much data follows. */
  #chunkSizeLine(buf: Uint8Array, i: number, stop: number): number {
    const line = this.#chunkLine;
    const end = line.scan(buf, i, stop);
    if (end === BAD_CHUNK_LINE) return this.#fail(line.error);
    if (end === stop) return stop;
    this.#remaining = line.size;
    if (buf[end] === CR && end + 1 < stop && buf[end + 1] === LF) {
      return this.#lineEnd(L_CHUNK_SIZE) ? end + 2 : PARSE_ERROR;
    }
    return this.#endOfLine(buf[end], L_CHUNK_SIZE) ? end + 1 : PARSE_ERROR;
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
    if (kind === L_CHUNK_SIZE || this.#fieldLines.inTrailers) {
      // RFC 9112 2.2's bare-LF allowance covers the head; chunked coding (7.1) is CRLF only, as in
      // llhttp, hyper and nginx: a reader that took LF here would find another end than they do.
      this.error = "bare LF in a chunked body";
      return false;
    }
    return this.#lineEnd(kind);
  }

  /** A line of `kind` ended (its LF consumed). */
  #lineEnd(kind: number): boolean {
    this.#lineKind = kind;
    switch (kind) {
      case L_EMPTY:
        this.#state = S_START;
        if (++this.#emptyLines > MAX_EMPTY_LINES) {
          return this.#refuse("too many empty lines before the start line");
        }
        return true;
      case L_START:
      case L_FIELD:
        this.#state = S_FIELD_START;
        return true;
      case L_HEAD_END:
        this.#event = EV_HEAD;
        if (!this.#fieldLines.endField()) return this.#refuse(this.#fieldLines.error);
        return this.#fieldLines.inTrailers ? (this.#finish(0), true) : this.#endHead();
      default: // L_CHUNK_SIZE
        this.#event = EV_CHUNK_LINE;
        if (this.#remaining === 0) {
          this.#fieldLines.startTrailers();
          this.#state = S_FIELD_START;
        } else this.#state = S_CHUNK_DATA;
        return true;
    }
  }

  /** The empty line after a head: an interim head, a refused one, or the framing of the body. */
  #endHead(): boolean {
    const f = this.#fieldLines.facts;
    const status = this.status;
    if (!this.#request && isInterim(status)) {
      // Interim (100 Continue, 103 Early Hints): the final head follows; the cap runs on.
      this.#startHead();
      this.status = status;
      this.#event = EV_HEAD;
      return true;
    }
    this.keepAlive = keepAliveAsked(f, this.#http10);
    const refusal = framingRefusal(f, this.#http10, this.#request, this.#verbatim);
    if (refusal !== "") return this.#refuse(refusal);
    const framing = bodyFraming(f, status, this.#request, this.#isHead);
    if (framingCloses(f, this.#http10, status, framing)) this.keepAlive = false;
    this.framing = framing;
    if (framing === Framing.Chunked) this.#expectChunkLine();
    else if (framing === Framing.UntilClose) this.#state = S_UNTIL_CLOSE;
    else if (framing === Framing.Length && f.contentLength > 0) {
      this.contentLength = this.#remaining = f.contentLength;
      this.#state = S_BODY;
    } else this.#finish(0); // no body, or Content-Length: 0
    return true;
  }

  #refuse(message: string): boolean {
    this.error = message;
    return false;
  }
}
