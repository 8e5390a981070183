/**
 * @module
 * Just enough of HTTP/1.1 (RFC 9112) for the balancer to forward messages as bytes: where a request or
 * response head ends, how its body is framed (none, Content-Length, chunked, or until the connection
 * closes) and whether the connection stays open afterwards. Heads are forwarded verbatim, so nothing is
 * decoded into strings: the scan compares char codes, and a head is described by one reused object per
 * connection. HOT PATH: one pass over the head per message, no allocation. Anything ambiguous about
 * framing (two Content-Lengths, Content-Length with chunked, a transfer coding other than chunked) is
 * refused rather than guessed, because a balancer that frames a message differently from the upstream
 * would splice one client's bytes into another's request (request smuggling).
 */

/** How a message body is delimited (`UntilClose`: a response whose body runs until the upstream closes). */
export const Framing = { None: 0, Length: 1, Chunked: 2, UntilClose: 3 } as const;
export type Framing = typeof Framing[keyof typeof Framing];

/** Returned instead of a head's end when more bytes are needed. */
export const INCOMPLETE = -1;
/** Returned instead of a head's end when the head cannot be framed safely. */
export const MALFORMED = -2;

/** What the forwarder needs to know about one head; filled in place by the parse functions. */
export interface MessageHead {
  framing: Framing;
  /** Body bytes when framing is `Length`. */
  contentLength: number;
  /** The sender asked to close the connection after this message (or speaks HTTP/1.0 without keep-alive). */
  close: boolean;
  /** Response: status code. Request: 0. */
  status: number;
  /** Request: the method is HEAD (its response has no body whatever its headers say). */
  head: boolean;
  /** Request: offsets of the request-target in the buffer. */
  targetStart: number;
  targetEnd: number;
}

export function newHead(): MessageHead {
  return {
    framing: Framing.None,
    contentLength: 0,
    close: false,
    status: 0,
    head: false,
    targetStart: 0,
    targetEnd: 0,
  };
}

const CR = 13, LF = 10, COLON = 58, SP = 32, HTAB = 9, COMMA = 44;

/** Index just past the blank line ending a head that starts at `from`, or INCOMPLETE. */
export function findHeadEnd(buf: Uint8Array, from: number, to: number): number {
  for (let i = from + 3; i < to; i++) {
    // Check the last byte first: LF is rare inside a head, so most positions fail at once.
    if (buf[i] === LF && buf[i - 1] === CR && buf[i - 2] === LF && buf[i - 3] === CR) return i + 1;
  }
  return INCOMPLETE;
}

/** Lower-cases an ASCII letter's char code. */
function lower(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

/** Whether buf[at, at + name.length) equals `name` (given in lower case), ignoring case. */
function matches(buf: Uint8Array, at: number, name: string): boolean {
  for (let k = 0; k < name.length; k++) if (lower(buf[at + k]) !== name.charCodeAt(k)) return false;
  return true;
}

/** Whether the comma-separated value in buf[from, to) holds `token` (lower case) as a whole element. */
function hasToken(buf: Uint8Array, from: number, to: number, token: string): boolean {
  let i = from;
  while (i < to) {
    while (i < to && (buf[i] === SP || buf[i] === HTAB || buf[i] === COMMA)) i++;
    let end = i;
    while (end < to && buf[end] !== COMMA) end++;
    let last = end;
    while (last > i && (buf[last - 1] === SP || buf[last - 1] === HTAB)) last--;
    if (last - i === token.length && matches(buf, i, token)) return true;
    i = end;
  }
  return false;
}

/** Parses a decimal Content-Length value; -1 when it is not one. */
function parseLength(buf: Uint8Array, from: number, to: number): number {
  while (from < to && (buf[from] === SP || buf[from] === HTAB)) from++;
  while (to > from && (buf[to - 1] === SP || buf[to - 1] === HTAB)) to--;
  if (from === to || to - from > 15) return -1;
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = buf[i] - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/**
 * Reads the header fields between `from` (the first field line) and `headEnd` into `out`: framing,
 * Content-Length and the Connection tokens. Returns false when the framing is ambiguous.
 */
function scanFields(
  buf: Uint8Array,
  from: number,
  headEnd: number,
  http10: boolean,
  out: MessageHead,
): boolean {
  let length = -1, chunked = false, otherCoding = false, close = false, keepAlive = false;
  let i = from;
  while (i < headEnd - 2) {
    let eol = i;
    while (buf[eol] !== LF) eol++;
    const lineEnd = buf[eol - 1] === CR ? eol - 1 : eol;
    let colon = i;
    while (colon < lineEnd && buf[colon] !== COLON) colon++;
    if (colon === lineEnd || colon === i) return false;
    const nameLength = colon - i;
    if (nameLength === 14 && matches(buf, i, "content-length")) {
      const n = parseLength(buf, colon + 1, lineEnd);
      if (n < 0 || (length >= 0 && n !== length)) return false;
      length = n;
    } else if (nameLength === 17 && matches(buf, i, "transfer-encoding")) {
      if (hasToken(buf, colon + 1, lineEnd, "chunked")) chunked = true;
      else otherCoding = true;
    } else if (nameLength === 10 && matches(buf, i, "connection")) {
      if (hasToken(buf, colon + 1, lineEnd, "close")) close = true;
      if (hasToken(buf, colon + 1, lineEnd, "keep-alive")) keepAlive = true;
    }
    i = eol + 1;
  }
  if (chunked && (length >= 0 || otherCoding)) return false;
  out.framing = chunked ? Framing.Chunked : length >= 0 ? Framing.Length : Framing.None;
  out.contentLength = length > 0 ? length : 0;
  out.close = close || (http10 && !keepAlive);
  if (otherCoding) out.framing = Framing.UntilClose; // a response only: requests refuse it below
  return true;
}

/** Index of the first LF at or after `from` (a head always has one before its end). */
function lineEndOf(buf: Uint8Array, from: number): number {
  while (buf[from] !== LF) from++;
  return from;
}

/**
 * Parses the request head starting at `from` into `out`. Returns the index just past the head,
 * INCOMPLETE when the blank line has not arrived yet, or MALFORMED.
 */
export function parseRequestHead(buf: Uint8Array, from: number, to: number, out: MessageHead): number {
  const headEnd = findHeadEnd(buf, from, to);
  if (headEnd < 0) return headEnd;
  const eol = lineEndOf(buf, from);
  let sp1 = from;
  while (sp1 < eol && buf[sp1] !== SP) sp1++;
  let sp2 = sp1 + 1;
  while (sp2 < eol && buf[sp2] !== SP) sp2++;
  if (sp1 === from || sp2 >= eol || !matches(buf, sp2 + 1, "http/1.")) return MALFORMED;
  const http10 = buf[sp2 + 8] === 48;
  out.status = 0;
  out.head = sp1 - from === 4 && buf[from] === 72 && buf[from + 1] === 69 && buf[from + 2] === 65 &&
    buf[from + 3] === 68;
  out.targetStart = sp1 + 1;
  out.targetEnd = sp2;
  if (!scanFields(buf, eol + 1, headEnd, http10, out) || out.framing === Framing.UntilClose) return MALFORMED;
  return headEnd;
}

/**
 * Parses the response head starting at `from` into `out`; `requestWasHead` and the status decide
 * whether a body follows (RFC 9112 6.3). Returns the index just past the head, INCOMPLETE or MALFORMED.
 */
export function parseResponseHead(
  buf: Uint8Array,
  from: number,
  to: number,
  requestWasHead: boolean,
  out: MessageHead,
): number {
  const headEnd = findHeadEnd(buf, from, to);
  if (headEnd < 0) return headEnd;
  if (!matches(buf, from, "http/1.") || buf[from + 8] !== SP) return MALFORMED;
  const d1 = buf[from + 9] - 48, d2 = buf[from + 10] - 48, d3 = buf[from + 11] - 48;
  if (!(d1 >= 1 && d1 <= 9 && d2 >= 0 && d2 <= 9 && d3 >= 0 && d3 <= 9)) return MALFORMED;
  const status = d1 * 100 + d2 * 10 + d3;
  out.status = status;
  out.head = false;
  if (!scanFields(buf, lineEndOf(buf, from) + 1, headEnd, buf[from + 7] === 48, out)) return MALFORMED;
  const noBody = requestWasHead || status < 200 || status === 204 || status === 304;
  if (noBody) out.framing = Framing.None;
  else if (out.framing === Framing.None) out.framing = Framing.UntilClose;
  if (out.framing === Framing.UntilClose) out.close = true;
  return headEnd;
}

// States of the chunked scanner.
const SIZE = 0,
  EXTENSION = 1,
  DATA = 2,
  DATA_CR = 3,
  DATA_LF = 4,
  TRAILER_START = 5,
  TRAILER_LINE = 6,
  LAST_LF = 7;

/**
 * Finds where a chunked body ends (RFC 9112 7.1) without decoding it: the forwarder passes the chunks on
 * as they are and only needs to know when the last chunk and the trailer section are through. Fed the
 * body's bytes piece by piece, in order; one scanner per connection, `reset()` per message.
 */
export class ChunkedScanner {
  #state = SIZE;
  #remaining = 0;
  #digits = 0;

  reset(): void {
    this.#state = SIZE;
    this.#remaining = 0;
    this.#digits = 0;
  }

  /** Index just past the body's end within [from, to), INCOMPLETE if it goes on, or MALFORMED. */
  scan(buf: Uint8Array, from: number, to: number): number {
    let i = from;
    while (i < to) {
      if (this.#state === DATA) {
        const take = Math.min(this.#remaining, to - i);
        i += take;
        this.#remaining -= take;
        if (this.#remaining === 0) this.#state = DATA_CR;
        continue;
      }
      const c = buf[i++];
      const next = this.#step(c);
      if (next === MALFORMED) return MALFORMED;
      if (next === 1) return i;
    }
    return INCOMPLETE;
  }

  /** One byte outside chunk data: 0 to go on, 1 when the body ended with it, MALFORMED. */
  #step(c: number): number {
    switch (this.#state) {
      case SIZE: {
        const d = hexDigit(c);
        if (d >= 0 && this.#digits < 12) {
          this.#remaining = this.#remaining * 16 + d;
          this.#digits++;
          return 0;
        }
        if (this.#digits === 0) return MALFORMED;
        if (c === LF) return this.#endSizeLine();
        this.#state = EXTENSION; // ";name=value", whitespace, or the CR of the line end
        return c === CR || c === 59 || c === SP || c === HTAB ? 0 : MALFORMED;
      }
      case EXTENSION:
        return c === LF ? this.#endSizeLine() : 0;
      case DATA_CR:
        this.#state = DATA_LF;
        return c === CR ? 0 : MALFORMED;
      case DATA_LF:
        this.#state = SIZE;
        this.#digits = 0;
        return c === LF ? 0 : MALFORMED;
      case TRAILER_START:
        this.#state = c === CR ? LAST_LF : c === LF ? SIZE : TRAILER_LINE;
        return c === LF ? 1 : 0;
      case TRAILER_LINE:
        if (c === LF) this.#state = TRAILER_START;
        return 0;
      default: // LAST_LF
        this.reset();
        return c === LF ? 1 : MALFORMED;
    }
  }

  #endSizeLine(): number {
    this.#state = this.#remaining === 0 ? TRAILER_START : DATA;
    this.#digits = 0;
    return 0;
  }
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 32;
  return l >= 97 && l <= 102 ? l - 87 : -1;
}
