/**
 * @module
 * The start line (RFC 9112 3, 4) scanned byte by byte: a status line (any three digits, an optional
 * reason; minor version above 1 reads as 1.1) or a request line. A whole status line is checked at once.
 */
import { TCHAR } from "./chars.ts";

const SP = 32, HTAB = 9, CR = 13, LF = 10;
const HTTP_1_DOT = new TextEncoder().encode("HTTP/1.");
const HEAD = new TextEncoder().encode("HEAD");
/** Returned by `scan` for bytes that are no start line; `error` says which kind. */
export const BAD_LINE = -2;

const STATUS = 0, REASON = 1, METHOD = 2, TARGET = 3, VERSION = 4;

export class StartLine {
  status = 0;
  http10 = false;
  headMethod = false;
  /** Valid when the request line came in one scan. */
  targetStart = 0;
  targetEnd = 0;
  readonly error: string;
  readonly #request: boolean;
  #part = STATUS;
  #at = 0;

  constructor(request: boolean) {
    this.#request = request;
    this.error = request ? "bad request line" : "bad status line";
  }

  reset(): void {
    this.#part = this.#request ? METHOD : STATUS;
    this.#at = 0;
    this.status = 0;
    this.http10 = false;
    this.headMethod = false;
  }

  /** Scans buf[i, stop): the index of a CR or LF that may end the line, `stop` to go on, or BAD_LINE. */
  scan(buf: Uint8Array, i: number, stop: number): number {
    while (i < stop) {
      const c = buf[i];
      switch (this.#part) {
        case STATUS:
          if (this.#at === 0 && stop - i > 12 && this.#statusAt(buf, i)) i += 12;
          else if (this.#at === 12 && (c === CR || c === LF)) return i; // no reason phrase
          else if (this.#statusByte(c)) i++;
          else return BAD_LINE;
          break;
        case REASON:
          while (i < stop && (buf[i] >= 32 ? buf[i] !== 127 : buf[i] === HTAB)) i++;
          if (i === stop) return i;
          return buf[i] === CR || buf[i] === LF ? i : BAD_LINE;
        case METHOD:
          if (TCHAR[c] === 1) {
            this.headMethod = (this.#at === 0 || this.headMethod) && c === HEAD[this.#at];
            this.#at++;
            i++;
            break;
          }
          if (c !== SP || this.#at === 0) return BAD_LINE;
          this.headMethod = this.headMethod && this.#at === 4;
          this.targetStart = ++i;
          this.#part = TARGET;
          break;
        case TARGET:
          while (i < stop && buf[i] > 32 && buf[i] !== 127) i++;
          if (i === stop) return i;
          if (buf[i] !== SP || i === this.targetStart) return BAD_LINE;
          this.targetEnd = i++;
          this.#at = 0;
          this.#part = VERSION;
          break;
        default: // VERSION
          if (this.#at === 8) return c === CR || c === LF ? i : BAD_LINE;
          if (!this.#versionByte(c, this.#at++)) return BAD_LINE;
          i++;
      }
    }
    return i;
  }

  /** Whether buf[i, i + 12) is "HTTP/1.x SSS" (then taken); false to go byte by byte. */
  #statusAt(buf: Uint8Array, i: number): boolean {
    for (let k = 0; k < 7; k++) if (buf[i + k] !== HTTP_1_DOT[k]) return false;
    const minor = buf[i + 7] - 48, d0 = buf[i + 9] - 48, d1 = buf[i + 10] - 48, d2 = buf[i + 11] - 48;
    if (
      minor < 0 || minor > 9 || buf[i + 8] !== SP || d0 < 0 || d0 > 9 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9
    ) {
      return false;
    }
    this.http10 = minor === 0;
    this.status = d0 * 100 + d1 * 10 + d2;
    this.#at = 12;
    return true;
  }

  /** One byte of "HTTP/1.x SSS" and the SP after it. */
  #statusByte(c: number): boolean {
    const at = this.#at++;
    if (at <= 7) return this.#versionByte(c, at);
    if (at === 8) return c === SP;
    if (at <= 11) {
      const d = c - 48;
      if (d < 0 || d > 9) return false;
      this.status = this.status * 10 + d;
      return true;
    }
    this.#part = REASON;
    return c === SP;
  }

  /** Byte `at` (0-7) of "HTTP/1.x". */
  #versionByte(c: number, at: number): boolean {
    if (at < 7) return c === HTTP_1_DOT[at];
    this.http10 = c === 48;
    return c >= 48 && c <= 57;
  }
}
