/**
 * @module
 * HTTP/1.1 message framing (RFC 9112) for both sides of loadlab: the load engine's response parser and
 * the balancer's forwarder use this one rule book, so they agree on where every message ends. It scans
 * bytes as they arrive, any split across reads giving the same outcome, and holds no bytes between
 * calls: the start line (start_line.ts), field names, the framing fields' values (framing_fields.ts)
 * and chunk lines are parsed as state machines, byte by byte, with fast paths for what came whole.
 * HOT PATH: no strings or objects per message; errors are constant strings.
 *
 * Strict, because a reader that frames a message differently from its sender can be steered: field
 * names must be tokens (no space before the colon) and are compared over ASCII letters only; a CR not
 * followed by LF, or any other control byte but HTAB, in a start line, field line or chunk line is an
 * error; chunk data must end with CRLF; chunk sizes are hex digits, then only whitespace and `;`
 * extensions; sizes are exact (below 2^53) or an error. Framing per RFC 9112 6.3: no body for HEAD,
 * 1xx, 204 and 304; Transfer-Encoding with `chunked` final is chunked; Transfer-Encoding without it
 * runs until the close (a response; a request is refused); Content-Length otherwise; else until the
 * close (response) or no body (request). Transfer-Encoding together with Content-Length, or in an
 * HTTP/1.0 message, is read by Transfer-Encoding and then the connection closes (RFC 9112 6.1, 6.3
 * rule 3: it is a smuggling sign); `chunked` listed twice is an error.
 *
 * Tolerated, as robust user agents do: up to 8 empty lines before a start line; a bare LF as the end of
 * a head's line (never in a chunked body: chunk lines, trailers and its last line end in CRLF, RFC 9112 7.1);
 * a status line without the reason phrase (`HTTP/1.1 200`); any status 100-999; an obs-fold line is
 * joined to the field before it with a space (RFC 9112 5.2). A forwarder (`verbatim`) passes heads on as
 * they are, so it gets none of the tolerances that would need a rewrite: bare LF, obs-fold and
 * Transfer-Encoding with Content-Length or in HTTP/1.0 are errors there.
 */
import {
  FIELD_NONE,
  FIELD_OTHER,
  FRAMING_NAMES,
  framingNameAt,
  hexValue,
  matched,
  narrowRange,
  TCHAR,
} from "./chars.ts";
import { FramingFields, isFramingField } from "./framing_fields.ts";
import { BAD_LINE, StartLine } from "./start_line.ts";

/** `feed` needs more bytes. */
export const NEED_MORE = -1;
/** `feed` found bytes that break the framing rules; `error` says which. */
export const PARSE_ERROR = -2;

/** How the body of the last head is delimited. */
export const Framing = { None: 0, Length: 1, Chunked: 2, UntilClose: 3 } as const;
export type Framing = typeof Framing[keyof typeof Framing];

/** Empty lines ignored before a start line (RFC 9112 2.2 asks servers to ignore at least one). */
export const MAX_EMPTY_LINES = 8;
const SIZE_MAX = Number.MAX_SAFE_INTEGER;
const CR = 13, LF = 10, SP = 32, HTAB = 9, COLON = 58, SEMICOLON = 59;

// States. Below S_BODY: line states, which count against the head cap.
const S_START = 0; // empty lines before a start line
const S_START_LINE = 1; // start_line.ts
const S_FIELD_START = 2;
const S_NAME = 3;
const S_VALUE = 4;
const S_CR = 5; // a CR: LF must follow
const S_CHUNK_SIZE = 6;
const S_CHUNK_SPACE = 7;
const S_CHUNK_EXT = 8;
const S_BODY = 9;
const S_CHUNK_DATA = 10;
const S_DATA_CR = 11;
const S_DATA_LF = 12;
const S_UNTIL_CLOSE = 13;
const S_DONE = 14;

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
  readonly #fields = new FramingFields();
  readonly #line: StartLine;
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
  #inTrailers = false;
  #field = FIELD_NONE;
  /** Position in the start line, or in a field name; candidate framing names still matching. */
  #at = 0;
  #mask = 0;
  #remaining = 0;
  #headBytes = 0;

  constructor(options: FramerOptions) {
    this.#request = options.request ?? false;
    this.#line = new StartLine(this.#request);
    this.#verbatim = options.verbatim ?? false;
    this.#stopAtHeads = options.stopAtHeads ?? false;
    this.#maxHeadBytes = options.maxHeadBytes;
    this.#headTooLarge = options.headTooLarge ?? "head too large";
  }

  /** Prepares for the next message; `isHead`: the response answers HEAD (no body whatever it says). */
  start(isHead = false): void {
    this.#isHead = isHead;
    this.#headBytes = 0;
    this.#inTrailers = false;
    this.keepAlive = true;
    this.done = false;
    this.error = "";
    this.bodyBytes = 0;
    this.#startHead();
  }

  /** Prepares to find the end of a chunked body whose first chunk-size line is next (a forwarder's relay). */
  startChunkedBody(): void {
    this.start(false);
    this.#state = S_CHUNK_SIZE;
    this.#remaining = 0;
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
        this.#state = S_CHUNK_SIZE;
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
    this.#field = FIELD_NONE;
    this.#fields.reset();
    this.#http10 = false;
    this.#at = 0;
    this.status = 0;
    this.framing = Framing.None;
    this.contentLength = 0;
    this.headMethod = false;
    this.leadingBytes = 0;
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
   * a head, a chunk-size line or the message), or PARSE_ERROR.
   */
  #lines(buf: Uint8Array, i: number, stop: number): number {
    while (i < stop && this.#event === EV_NONE) {
      let c = buf[i];
      switch (this.#state) {
        case S_START:
          if (c === CR || c === LF) {
            this.leadingBytes++;
            i++;
            if (!this.#endOfLine(c, L_EMPTY)) return PARSE_ERROR;
            break;
          }
          this.#line.reset();
          this.#state = S_START_LINE;
          break;
        case S_START_LINE: {
          const end = this.#line.scan(buf, i, stop);
          if (end === BAD_LINE) return this.#fail(this.#line.error);
          if (end === stop) return stop;
          const line = this.#line;
          this.status = line.status;
          this.#http10 = line.http10;
          this.headMethod = line.headMethod;
          this.targetStart = line.targetStart;
          this.targetEnd = line.targetEnd;
          if (buf[end] === CR && end + 1 < stop && buf[end + 1] === LF) {
            i = end + 2;
            this.#state = S_FIELD_START;
          } else {
            i = end + 1;
            if (!this.#endOfLine(buf[end], L_START)) return PARSE_ERROR;
          }
          break;
        }
        case S_FIELD_START:
          if (c === CR || c === LF) {
            if (c === CR && i + 1 < stop && buf[i + 1] === LF) {
              i += 2;
              if (!this.#lineEnd(L_HEAD_END)) return PARSE_ERROR;
              break;
            }
            i++;
            if (!this.#endOfLine(c, L_HEAD_END)) return PARSE_ERROR;
            break;
          }
          if (c === SP || c === HTAB) {
            if (this.#field === FIELD_NONE) return this.#fail("whitespace before the first header line");
            if (this.#verbatim) return this.#fail("obs-fold header line");
            // obs-fold: the line continues the previous field's value, joined with one space.
            if (isFramingField(this.#field) && !this.#fields.byte(SP)) return this.#fail(this.#fields.error);
            this.#state = S_VALUE;
            i++;
            break;
          }
          if (!this.#endField()) return PARSE_ERROR;
          if (TCHAR[c] !== 1) return this.#fail("bad header name");
          this.#at = 0;
          this.#mask = this.#inTrailers ? 0 : 7;
          this.#state = S_NAME;
          i = this.#name(buf, i, stop);
          if (i < 0) return PARSE_ERROR;
          break;
        case S_NAME:
          i = this.#name(buf, i, stop);
          if (i < 0) return PARSE_ERROR;
          break;
        case S_VALUE:
          i = this.#value(buf, i, stop);
          if (i < 0) return PARSE_ERROR;
          break;
        case S_CR:
          if (c !== LF) return this.#fail("bare CR");
          if (this.#lineKind === L_EMPTY) this.leadingBytes++;
          i++;
          if (!this.#lineEnd(this.#lineKind)) return PARSE_ERROR;
          break;
        case S_CHUNK_SIZE: {
          let size = this.#remaining, d = 0;
          const from = i;
          while (i < stop && (d = hexValue(buf[i])) >= 0) {
            size = size * 16 + d;
            if (size > SIZE_MAX) return this.#fail("bad chunk size");
            i++;
          }
          this.#remaining = size;
          this.#at += i - from;
          if (i === stop) break;
          if (this.#at === 0) return this.#fail("bad chunk size");
          if (i + 1 < stop && buf[i] === CR && buf[i + 1] === LF) {
            i += 2;
            this.#lineEnd(L_CHUNK_SIZE);
          } else this.#state = S_CHUNK_SPACE;
          break;
        }
        case S_CHUNK_SPACE:
          i++;
          if (c === SP || c === HTAB) break;
          if (c === SEMICOLON) this.#state = S_CHUNK_EXT;
          else if (!this.#endOfLine(c, L_CHUNK_SIZE)) {
            return c === LF ? PARSE_ERROR : this.#fail("bad chunk size");
          }
          break;
        case S_CHUNK_EXT:
          while (i < stop && ((c = buf[i]) >= 32 ? c !== 127 : c === HTAB)) i++;
          if (i === stop) break;
          i++;
          if (!this.#endOfLine(c, L_CHUNK_SIZE)) return PARSE_ERROR;
          break;
        default:
          return i; // not a line state (reached only through a bug): hand back to `feed`
      }
    }
    return i;
  }

  /** A field name in buf[i, stop), and on past its colon into the value; where it stopped, or PARSE_ERROR. */
  #name(buf: Uint8Array, i: number, stop: number): number {
    const from = i;
    let c = 0;
    while (i < stop && TCHAR[c = buf[i]] === 1) i++;
    const at = this.#at + i - from;
    if (i === stop) {
      // The name goes on in the next read: keep which framing names it can still be.
      this.#mask = narrowRange(buf, from, i, this.#at, this.#mask);
      this.#at = at;
      return i;
    }
    if (c !== COLON) return this.#fail("bad header name");
    const field = this.#mask === 0 ? -1 : this.#at === 0
      ? framingNameAt(buf, from, at) // the common case: the whole name is in this read
      : matched(FRAMING_NAMES, narrowRange(buf, from, i, this.#at, this.#mask), at);
    this.#field = field < 0 ? FIELD_OTHER : field;
    if (field >= 0) this.#fields.begin(field);
    this.#state = S_VALUE;
    return this.#value(buf, i + 1, stop);
  }

  /** Field value bytes in buf[i, stop), up to and through the line end; where it stopped, or PARSE_ERROR. */
  #value(buf: Uint8Array, i: number, stop: number): number {
    let c = 0;
    if (this.#field === FIELD_OTHER) {
      while (i < stop && ((c = buf[i]) >= 32 ? c !== 127 : c === HTAB)) i++;
    } else {
      while (i < stop && ((c = buf[i]) >= 32 ? c !== 127 : c === HTAB)) {
        if (!this.#fields.byte(c)) return this.#fail(this.#fields.error);
        i++;
      }
    }
    if (i === stop) return i;
    if (c === CR && i + 1 < stop && buf[i + 1] === LF) {
      this.#state = S_FIELD_START; // the common line end, without a trip through S_CR
      return i + 2;
    }
    return this.#endOfLine(c, L_FIELD) ? i + 1 : PARSE_ERROR;
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
    if (kind === L_CHUNK_SIZE || this.#inTrailers) {
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
          this.error = "too many empty lines before the start line";
          return false;
        }
        return true;
      case L_START:
      case L_FIELD:
        this.#state = S_FIELD_START;
        return true;
      case L_HEAD_END:
        this.#event = EV_HEAD;
        return this.#endField() && (this.#inTrailers ? (this.#finish(0), true) : this.#endHead());
      default: // L_CHUNK_SIZE
        this.#event = EV_CHUNK_LINE;
        if (this.#remaining === 0) {
          this.#inTrailers = true;
          this.#field = FIELD_NONE;
          this.#state = S_FIELD_START;
        } else this.#state = S_CHUNK_DATA;
        this.#at = 0;
        return true;
    }
  }

  #endField(): boolean {
    const field = this.#field;
    if (field === FIELD_NONE) return true;
    this.#field = FIELD_OTHER;
    if (isFramingField(field) && !this.#fields.end()) {
      this.error = this.#fields.error;
      return false;
    }
    return true;
  }

  /** The empty line after a head: decide the framing (RFC 9112 6.3). */
  #endHead(): boolean {
    const f = this.#fields;
    const status = this.status;
    if (!this.#request && status < 200 && status !== 101) {
      // Interim (100 Continue, 103 Early Hints): the final head follows; the cap runs on.
      this.#startHead();
      this.status = status;
      this.#event = EV_HEAD;
      return true;
    }
    this.keepAlive = this.#http10 ? f.keepAliveToken && !f.closeToken : !f.closeToken;
    if (f.transferEncoding) {
      if (f.chunkedCount > 1) return this.#refuse("chunked listed more than once");
      if (f.contentLength >= 0 || this.#http10) {
        if (this.#verbatim || this.#request) {
          return this.#refuse(
            f.contentLength >= 0 ? "transfer-encoding with content-length" : "transfer-encoding in HTTP/1.0",
          );
        }
        this.keepAlive = false;
      }
      if (this.#request && !f.chunkedFinal) return this.#refuse("transfer-encoding without final chunked");
    }
    if (!this.#request && (this.#isHead || status === 204 || status === 304 || status === 101)) {
      if (status === 101) this.keepAlive = false; // the connection is the other protocol's now
      this.#finish(0);
    } else if (f.transferEncoding && f.chunkedFinal) {
      this.framing = Framing.Chunked;
      this.#state = S_CHUNK_SIZE;
      this.#remaining = 0;
      this.#at = 0;
    } else if (f.transferEncoding || (f.contentLength < 0 && !this.#request)) {
      this.framing = Framing.UntilClose;
      this.keepAlive = false;
      this.#state = S_UNTIL_CLOSE;
    } else if (f.contentLength > 0) {
      this.framing = Framing.Length;
      this.contentLength = f.contentLength;
      this.#remaining = f.contentLength;
      this.#state = S_BODY;
    } else {
      this.framing = f.contentLength === 0 ? Framing.Length : Framing.None;
      this.#finish(0);
    }
    return true;
  }

  #refuse(message: string): boolean {
    this.error = message;
    return false;
  }
}
