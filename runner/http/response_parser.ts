/**
 * @module
 * Incremental HTTP/1.1 response parser for the load generator's hot path. It scans bytes as they
 * arrive (any split across reads is fine), keeps only the facts the generator needs (status, framing,
 * keep-alive) and never builds strings or objects per response: header lines are copied into one
 * reusable line buffer and compared byte-wise. Framing follows RFC 9112: no body for HEAD, 1xx, 204 and
 * 304; chunked wins over Content-Length; otherwise Content-Length; otherwise read until close.
 *
 * Hostile servers are bounded: the head (status line, headers, interim 1xx heads, and likewise a chunk-size
 * line and the trailer section) may take at most `maxHeadBytes`, a Content-Length or chunk size must be
 * a number below 2^53, and the parser never holds more than its fixed 1 KiB line buffer, so a 1 MiB
 * header line costs nothing but a parse error.
 */

/** `feed` needs more bytes to finish the current response. */
export const NEED_MORE = -1;
/** `feed` found bytes that are not HTTP; `parser.error` says what. */
export const PARSE_ERROR = -2;

const S_LINE = 0; // status line and header lines
const S_BODY = 1; // Content-Length body
const S_CHUNK_SIZE = 2;
const S_CHUNK_DATA = 3;
const S_CHUNK_END = 4; // the CRLF after a chunk's data
const S_TRAILER = 5;
const S_UNTIL_CLOSE = 6;
const S_DONE = 7;

const CR = 13;
const LF = 10;
const LINE_MAX = 1024;

/** Default cap of a response head (nginx and Node allow 8-16 KiB; Go's client allows 1 MiB). */
export const DEFAULT_MAX_HEADER_BYTES = 64 * 1024;
/** Sizes above this lose precision as numbers: a framing error, not a body to wait for. */
const SIZE_MAX = Number.MAX_SAFE_INTEGER;

const HTTP_SLASH = new TextEncoder().encode("HTTP/");
const NAME_CONTENT_LENGTH = new TextEncoder().encode("content-length");
const NAME_TRANSFER_ENCODING = new TextEncoder().encode("transfer-encoding");
const NAME_CONNECTION = new TextEncoder().encode("connection");

/** Parses one response after another on one connection; call `start()` before each. */
export class ResponseParser {
  /** Status code of the response being parsed (valid once its status line is in). */
  status = 0;
  /** False when the server asked to close, spoke HTTP/1.0 without keep-alive, or framed by close. */
  keepAlive = true;
  /** Why the last `feed` returned PARSE_ERROR (a constant string: no allocation). */
  error = "";
  #state: number = S_DONE;
  #isHead = false;
  #firstLine = true;
  #line = new Uint8Array(LINE_MAX);
  #lineLength = 0;
  #contentLength = -1;
  #chunked = false;
  #remaining = 0;
  #http10 = false;
  /** Bytes of head seen in line states since the response started (or since the last chunk-size line). */
  #headBytes = 0;
  readonly #maxHeadBytes: number;
  /** Built once: PARSE_ERROR messages are constant strings (the error map is keyed by them). */
  readonly #headTooLarge: string;

  constructor(maxHeadBytes = DEFAULT_MAX_HEADER_BYTES) {
    this.#maxHeadBytes = maxHeadBytes;
    this.#headTooLarge = `response head larger than ${maxHeadBytes} bytes (--max-header-bytes)`;
  }

  /** Prepares for the next response; `isHead` because a HEAD response has no body whatever it says. */
  start(isHead: boolean): void {
    this.#state = S_LINE;
    this.#isHead = isHead;
    this.#firstLine = true;
    this.#lineLength = 0;
    this.#contentLength = -1;
    this.#chunked = false;
    this.#remaining = 0;
    this.#http10 = false;
    this.#headBytes = 0;
    this.status = 0;
    this.keepAlive = true;
    this.error = "";
  }

  /** True once some byte of the current response has been seen. */
  get started(): boolean {
    // headBytes too: after an interim 1xx head the parser waits for a first line again.
    return this.#state !== S_LINE || !this.#firstLine || this.#lineLength > 0 || this.#headBytes > 0;
  }

  /**
   * Consumes `buf[offset, end)`. Returns the offset just past the end of the response when it
   * completed (bytes after it belong to the next pipelined response), NEED_MORE when all bytes were
   * consumed without completing, or PARSE_ERROR.
   */
  feed(buf: Uint8Array, offset: number, end: number): number {
    let i = offset;
    while (i < end) {
      switch (this.#state) {
        case S_LINE:
        case S_CHUNK_SIZE:
        case S_TRAILER: {
          let j = i;
          while (j < end && buf[j] !== LF) j++;
          this.#headBytes += (j === end ? end : j + 1) - i;
          if (this.#headBytes > this.#maxHeadBytes) return this.#fail(this.#headTooLarge);
          // Not HTTP at all (random bytes, another protocol): say so at once, not at a timeout.
          if (
            this.#firstLine && this.#state === S_LINE && this.#lineLength < 5 && !this.#httpSoFar(buf, i, j)
          ) {
            return this.#fail("bad status line");
          }
          if (j === end) {
            this.#keep(buf, i, end); // the line continues in the next read
            return NEED_MORE;
          }
          let ok: boolean;
          if (this.#lineLength === 0) {
            // Common case: the whole line is in this read; parse it in place, no copy.
            ok = this.#endOfLine(buf, i, j > i && buf[j - 1] === CR ? j - 1 - i : j - i);
          } else {
            this.#keep(buf, i, j);
            let length = Math.min(this.#lineLength, LINE_MAX);
            if (length > 0 && this.#line[length - 1] === CR) length--;
            ok = this.#endOfLine(this.#line, 0, length);
          }
          this.#lineLength = 0;
          i = j + 1;
          if (!ok) return PARSE_ERROR;
          if ((this.#state as number) === S_DONE) return i;
          continue;
        }
        case S_BODY:
        case S_CHUNK_DATA: {
          const take = Math.min(end - i, this.#remaining);
          i += take;
          this.#remaining -= take;
          if (this.#remaining === 0) {
            if (this.#state === S_BODY) {
              this.#state = S_DONE;
              return i;
            }
            this.#state = S_CHUNK_END;
          }
          continue;
        }
        case S_CHUNK_END: {
          // Tolerate a bare LF; anything else before it is a framing error.
          const b = buf[i++];
          if (b === LF) this.#state = S_CHUNK_SIZE;
          else if (b !== CR) return this.#fail("bad chunk terminator");
          continue;
        }
        case S_UNTIL_CLOSE:
          return NEED_MORE;
        default:
          return this.#fail("data after the end of a response");
      }
    }
    return NEED_MORE;
  }

  /** Bytes the parser holds between reads (a line split across reads): never more than its line buffer. */
  get bufferedBytes(): number {
    return Math.min(this.#lineLength, LINE_MAX);
  }

  /** At EOF: true when the current response is complete because it is framed by the close. */
  completesAtEof(): boolean {
    if (this.#state === S_UNTIL_CLOSE) {
      this.#state = S_DONE;
      return true;
    }
    return false;
  }

  /** True while the status line's first bytes (`buf[i, j)` continuing the line so far) match "HTTP/". */
  #httpSoFar(buf: Uint8Array, i: number, j: number): boolean {
    for (let k = this.#lineLength; k < 5 && i < j; k++, i++) if (buf[i] !== HTTP_SLASH[k]) return false;
    return true;
  }

  /** Appends a piece of a line split across reads to the line buffer (long lines are truncated). */
  #keep(buf: Uint8Array, from: number, to: number): void {
    const room = LINE_MAX - this.#lineLength;
    if (room > 0) this.#line.set(buf.subarray(from, Math.min(to, from + room)), this.#lineLength);
    this.#lineLength += to - from;
  }

  #fail(message: string): number {
    this.error = message;
    return PARSE_ERROR;
  }

  /** One complete line, `length` bytes of `l` from `at`, without its line end. */
  #endOfLine(l: Uint8Array, at: number, length: number): boolean {
    if (this.#state === S_CHUNK_SIZE) return this.#chunkSizeLine(l, at, length);
    if (this.#state === S_TRAILER) {
      if (length === 0) this.#state = S_DONE;
      return true;
    }
    if (this.#firstLine) return this.#statusLine(l, at, length);
    if (length === 0) return this.#endOfHeaders();
    return this.#headerLine(l, at, at + length);
  }

  #statusLine(l: Uint8Array, at: number, length: number): boolean {
    // "HTTP/1.x SSS" at least; the reason phrase is optional.
    if (
      length < 12 || l[at] !== 72 || l[at + 1] !== 84 || l[at + 2] !== 84 || l[at + 3] !== 80 ||
      l[at + 4] !== 47 || l[at + 5] !== 49 || l[at + 6] !== 46 || l[at + 8] !== 32
    ) {
      this.error = "bad status line";
      return false;
    }
    const d0 = l[at + 9] - 48, d1 = l[at + 10] - 48, d2 = l[at + 11] - 48;
    if (d0 < 1 || d0 > 5 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) {
      this.error = "bad status code";
      return false;
    }
    this.status = d0 * 100 + d1 * 10 + d2;
    this.#http10 = l[at + 7] === 48;
    this.keepAlive = !this.#http10;
    this.#firstLine = false;
    return true;
  }

  /** A header line `l[from, to)`: only the three headers that decide framing are looked at. */
  #headerLine(l: Uint8Array, from: number, to: number): boolean {
    const first = l[from] | 0x20;
    if (first !== 99 && first !== 116) return true; // not c(ontent-length, onnection) nor t(ransfer-encoding)
    let colon = from;
    while (colon < to && l[colon] !== 58) colon++;
    if (colon === to) return true; // not a header; ignore like lenient clients do
    let v = colon + 1;
    while (v < to && (l[v] === 32 || l[v] === 9)) v++;
    const length = to;
    if (nameIs(l, from, colon, NAME_CONTENT_LENGTH)) {
      let n = 0, digits = 0;
      for (let k = v; k < length; k++) {
        const d = l[k] - 48;
        if (d < 0 || d > 9) break;
        n = n * 10 + d;
        digits++;
      }
      // A framing we cannot trust must not be guessed at (RFC 9112 6.3: unrecoverable error).
      if (digits === 0 || n > SIZE_MAX) {
        this.error = "bad content-length";
        return false;
      }
      this.#contentLength = n;
    } else if (nameIs(l, from, colon, NAME_TRANSFER_ENCODING)) {
      this.#chunked = endsWithChunked(l, v, length);
    } else if (nameIs(l, from, colon, NAME_CONNECTION)) {
      const first = l[v] | 0x20;
      if (first === 99 /* c(lose) */) this.keepAlive = false;
      else if (first === 107 /* k(eep-alive) */) this.keepAlive = true;
    }
    return true;
  }

  #endOfHeaders(): boolean {
    const s = this.status;
    if (s < 200 && s !== 101) {
      // Interim response (100 Continue, 103 Early Hints): the real one follows.
      this.#firstLine = true;
      return true;
    }
    if (this.#isHead || s === 204 || s === 304 || s === 101) {
      this.#state = S_DONE;
    } else if (this.#chunked) {
      this.#state = S_CHUNK_SIZE;
    } else if (this.#contentLength >= 0) {
      this.#remaining = this.#contentLength;
      this.#state = this.#remaining === 0 ? S_DONE : S_BODY;
    } else {
      this.keepAlive = false;
      this.#state = S_UNTIL_CLOSE;
    }
    return true;
  }

  #chunkSizeLine(l: Uint8Array, at: number, length: number): boolean {
    let size = 0, digits = 0;
    for (let k = at; k < at + length; k++) {
      const c = l[k];
      let d: number;
      if (c >= 48 && c <= 57) d = c - 48;
      else if (c >= 97 && c <= 102) d = c - 87;
      else if (c >= 65 && c <= 70) d = c - 55;
      else break; // chunk extensions or whitespace
      size = size * 16 + d;
      digits++;
    }
    if (digits === 0 || size > SIZE_MAX) {
      this.error = "bad chunk size";
      return false;
    }
    this.#headBytes = 0; // the cap applies to each chunk-size line and then to the trailer section
    if (size === 0) this.#state = S_TRAILER;
    else {
      this.#remaining = size;
      this.#state = S_CHUNK_DATA;
    }
    return true;
  }
}

/** Case-insensitive comparison of the header name in `line[from, to)` with a lower-case name. */
function nameIs(line: Uint8Array, from: number, to: number, lower: Uint8Array): boolean {
  if (to - from !== lower.length) return false;
  for (let k = 0; k < lower.length; k++) {
    const c = line[from + k];
    if ((c | 0x20) !== lower[k] && c !== lower[k]) return false;
  }
  return true;
}

/** Transfer-Encoding is chunked when its last coding is "chunked". */
function endsWithChunked(line: Uint8Array, from: number, to: number): boolean {
  let end = to;
  while (end > from && (line[end - 1] === 32 || line[end - 1] === 9)) end--;
  if (end - from < 7) return false;
  const word = "chunked";
  for (let k = 0; k < 7; k++) if ((line[end - 7 + k] | 0x20) !== word.charCodeAt(k)) return false;
  return true;
}
