/**
 * @module
 * HTTP/1.1's framing fields parsed byte by byte across reads and obs-folds: Content-Length (identical
 * list values are one, anything else an error), Transfer-Encoding (`chunked` last?) and Connection.
 */
import {
  CONNECTION_WORDS,
  FIELD_CONNECTION,
  FIELD_CONTENT_LENGTH,
  FIELD_OTHER,
  FIELD_SET_COOKIE,
  FIELD_TRANSFER_ENCODING,
  matched,
  narrow,
  TE_WORDS,
} from "./chars.ts";

const SP = 32, HTAB = 9, COMMA = 44;

// Content-Length element phases.
const CL_BEFORE = 0, CL_DIGITS = 1, CL_AFTER = 2;

/** Framing facts of one head; `reset()` before each head. Methods return false on an invalid value. */
export class FramingFields {
  /** -1 when there was none. */
  contentLength = -1;
  /** Even an empty one. */
  transferEncoding = false;
  /** The final transfer coding so far is `chunked`. */
  chunkedFinal = false;
  /** Listed more than once is an error (RFC 9112 6.1). */
  chunkedCount = 0;
  closeToken = false;
  keepAliveToken = false;
  /** The head has a Set-Cookie field (a session's jar reads the head only then). */
  setCookie = false;
  error = "";
  #field = FIELD_OTHER;
  // Content-Length element in progress and the list's value so far.
  #phase = CL_BEFORE;
  #number = 0;
  #listValue = -1;
  // List element in progress (Transfer-Encoding, Connection).
  #words: readonly Uint8Array[] = TE_WORDS;
  #mask = 0;
  #length = 0;
  #spaceAfter = false;

  reset(): void {
    this.contentLength = -1;
    this.transferEncoding = false;
    this.chunkedFinal = false;
    this.chunkedCount = 0;
    this.closeToken = false;
    this.keepAliveToken = false;
    this.setCookie = false;
    this.#field = FIELD_OTHER;
  }

  /** A field line of a framing field starts its value; a Set-Cookie one is only noted. */
  begin(field: number): void {
    if (field === FIELD_SET_COOKIE) return void (this.setCookie = true);
    this.#field = field;
    if (field === FIELD_CONTENT_LENGTH) {
      this.#phase = CL_BEFORE;
      this.#number = 0;
      this.#listValue = -1;
    } else {
      this.#words = field === FIELD_TRANSFER_ENCODING ? TE_WORDS : CONNECTION_WORDS;
      this.#startElement();
      if (field === FIELD_TRANSFER_ENCODING) this.transferEncoding = true;
    }
  }

  /** One value byte (the caller rejected CR, LF and controls). */
  byte(c: number): boolean {
    if (this.#field === FIELD_CONTENT_LENGTH) return this.#lengthByte(c);
    if (c === COMMA) this.#endElement();
    else if (c === SP || c === HTAB) this.#spaceAfter = this.#length > 0;
    else {
      // Whitespace inside an element (`chunked x`) means it is no word of ours.
      this.#mask = this.#spaceAfter ? 0 : narrow(this.#words, this.#mask, this.#length, c);
      this.#length++;
    }
    return true;
  }

  end(): boolean {
    const field = this.#field;
    if (field !== FIELD_CONTENT_LENGTH) {
      if (field !== FIELD_OTHER) this.#endElement();
      this.#field = FIELD_OTHER;
      return true;
    }
    this.#field = FIELD_OTHER;
    if (this.#phase === CL_BEFORE) return this.#fail("bad content-length"); // empty, or a trailing comma
    if (!this.#endLengthElement()) return false;
    if (this.contentLength >= 0 && this.contentLength !== this.#listValue) {
      return this.#fail("conflicting content-length");
    }
    this.contentLength = this.#listValue;
    return true;
  }

  #lengthByte(c: number): boolean {
    const d = c - 48;
    if (d >= 0 && d <= 9) {
      if (this.#phase === CL_AFTER) return this.#fail("bad content-length"); // "1 2"
      this.#phase = CL_DIGITS;
      this.#number = this.#number * 10 + d;
      if (this.#number > Number.MAX_SAFE_INTEGER) return this.#fail("bad content-length");
      return true;
    }
    if (c === SP || c === HTAB) {
      if (this.#phase === CL_DIGITS) this.#phase = CL_AFTER;
      return true;
    }
    if (c === COMMA && this.#phase !== CL_BEFORE) return this.#endLengthElement();
    return this.#fail("bad content-length");
  }

  #endLengthElement(): boolean {
    if (this.#listValue >= 0 && this.#listValue !== this.#number) {
      return this.#fail("conflicting content-length");
    }
    this.#listValue = this.#number;
    this.#number = 0;
    this.#phase = CL_BEFORE;
    return true;
  }

  #startElement(): void {
    this.#mask = (1 << this.#words.length) - 1;
    this.#length = 0;
    this.#spaceAfter = false;
  }

  #endElement(): void {
    if (this.#length > 0) { // empty list elements are ignored (RFC 9110 5.6.1)
      const word = matched(this.#words, this.#mask, this.#length);
      if (this.#field === FIELD_TRANSFER_ENCODING) {
        this.chunkedFinal = word === 0;
        if (word === 0) this.chunkedCount++;
      } else if (word === 0) this.closeToken = true;
      else if (word === 1) this.keepAliveToken = true;
    }
    this.#startElement();
  }

  #fail(message: string): boolean {
    this.error = message;
    return false;
  }
}

export function isFramingField(field: number): boolean {
  return field === FIELD_CONTENT_LENGTH || field === FIELD_TRANSFER_ENCODING || field === FIELD_CONNECTION;
}
