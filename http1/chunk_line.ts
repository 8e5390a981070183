/**
 * @module
 * The chunk size line (RFC 9112 7.1) scanned byte by byte; extensions are skipped, sizes past 2^53 refused.
 */
import { hexValue } from "./chars.ts";

const SP = 32, HTAB = 9, CR = 13, LF = 10, SEMICOLON = 59;
/** Returned by `scan` for bytes that are no chunk-size line; `error` says which kind. */
export const BAD_CHUNK_LINE = -2;

const DIGITS = 0, SPACE = 1, EXTENSION = 2;

export class ChunkLine {
  /** The chunk's data bytes (0: the last chunk; the trailers follow). */
  size = 0;
  error = "";
  #part = DIGITS;
  #digits = 0;

  reset(): void {
    this.size = 0;
    this.#part = DIGITS;
    this.#digits = 0;
  }

  /** Scans buf[i, stop): the index of the CR or LF ending the line, `stop` to go on, or BAD_CHUNK_LINE. */
  scan(buf: Uint8Array, i: number, stop: number): number {
    if (this.#part === DIGITS) {
      i = this.#sizeDigits(buf, i, stop);
      if (i === BAD_CHUNK_LINE || i === stop) return i;
      if (buf[i] === CR || buf[i] === LF) return i;
      this.#part = SPACE;
    }
    if (this.#part === SPACE) {
      i = this.#spaceBeforeExtension(buf, i, stop);
      if (i === BAD_CHUNK_LINE || i === stop || this.#part === SPACE) return i;
    }
    let c = 0;
    while (i < stop && ((c = buf[i]) >= 32 ? c !== 127 : c === HTAB)) i++;
    if (i === stop || c === CR || c === LF) return i;
    return this.#fail("control byte in a line");
  }

  #sizeDigits(buf: Uint8Array, i: number, stop: number): number {
    let size = this.size, d = 0;
    const from = i;
    while (i < stop && (d = hexValue(buf[i])) >= 0) {
      size = size * 16 + d;
      if (size > Number.MAX_SAFE_INTEGER) return this.#fail("bad chunk size");
      i++;
    }
    this.size = size;
    this.#digits += i - from;
    if (i < stop && this.#digits === 0) return this.#fail("bad chunk size"); // no digit at all
    return i;
  }

  /** Whitespace after the size: where it stopped, or BAD_CHUNK_LINE for any other byte (`1 2`, `5x`). */
  #spaceBeforeExtension(buf: Uint8Array, i: number, stop: number): number {
    while (i < stop) {
      const c = buf[i];
      if (c === SP || c === HTAB) i++;
      else if (c === SEMICOLON) {
        this.#part = EXTENSION;
        return i + 1;
      } else if (c === CR || c === LF) return i;
      else return this.#fail("bad chunk size");
    }
    return i;
  }

  #fail(message: string): number {
    this.error = message;
    return BAD_CHUNK_LINE;
  }
}
