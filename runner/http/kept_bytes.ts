/**
 * @module
 * The raw bytes of one HTTP/1.1 response, kept for a flow step that captures, checks or keeps cookies
 * (h1/connection.ts `prepareStep`; kept_response.ts reads them with http1/'s scanners). The connection appends each run of bytes
 * the response parser says belong to the response, in one buffer of its own that grows and is reused;
 * keeping only the head stops at the end of the final head (past interim 1xx heads, and past empty lines
 * and bare-LF line ends as the parser reads them). Every other exchange keeps nothing and never comes here.
 * What is kept is capped (`limitBytes`, a step's `maxKeptBytes`, 1 MiB unless set): an endless or huge
 * body would otherwise grow the buffer until the process dies (2.8 GB in 8 s on one connection); past
 * the cap `append` refuses, and the caller fails the response as `body-too-large`.
 */
import { isInterim } from "../../http1/body_framing.ts";

/** The most bytes a step keeps of a response unless it sets `maxKeptBytes`. */
export const DEFAULT_KEPT_BYTES = 1024 * 1024;

/** The count message of a response past the bytes its step keeps. */
export function keptTooLargeMessage(limitBytes: number): string {
  return `the response passed the ${limitBytes} bytes its step keeps for captures and checks (maxKeptBytes)`;
}

export class KeptBytes {
  #bytes = new Uint8Array(0);
  #length = 0;
  /** The most bytes kept of one response (see `reset`). */
  limitBytes = DEFAULT_KEPT_BYTES;
  /** Where the kept head's end is looked for next, less two (head only); -1 once found. */
  #scan = 0;
  /** Where the head being kept starts (past interim 1xx heads). */
  #head = 0;

  /** Forgets the last response: the next append starts a new one, kept up to `limitBytes`. */
  reset(limitBytes = DEFAULT_KEPT_BYTES): void {
    this.#length = this.#scan = this.#head = 0;
    this.limitBytes = limitBytes;
  }

  /** The bytes kept of the response; valid until the next `reset`. */
  view(): Uint8Array {
    return this.#bytes.subarray(0, this.#length);
  }

  /**
   * Appends the response's bytes `buf[from, to)`; with `headOnly` only up to the end of its head. False
   * (nothing appended) when they would take the response past `limitBytes`.
   */
  append(buf: Uint8Array, from: number, to: number, headOnly: boolean): boolean {
    if (headOnly && this.#scan < 0) return true;
    const need = this.#length + to - from;
    if (need > this.limitBytes) return false;
    if (this.#bytes.length < need) {
      const grown = new Uint8Array(Math.max(need, 2 * this.#bytes.length, 4096));
      grown.set(this.#bytes.subarray(0, this.#length));
      this.#bytes = grown;
    }
    this.#bytes.set(buf.subarray(from, to), this.#length);
    this.#length = need;
    if (!headOnly) return true;
    const kept = this.#bytes;
    while (true) {
      const start = skipEmptyLines(kept, this.#head, need);
      const end = headEnd(kept, Math.max(start, this.#scan - 2), need);
      if (end < 0) {
        this.#scan = need;
        return true;
      }
      // An interim 1xx head: the final head follows it; keep on to its end.
      if (!isInterim(statusAt(kept, start))) {
        this.#scan = -1;
        return true;
      }
      this.#head = this.#scan = end;
    }
  }
}

/**
 * The status code of the head starting at `from`: the three digits after "HTTP/1.x " (the parser checked
 * them), whatever follows them (a reason, a bare SP, or the line end when there is no reason); 0 when
 * the head is shorter.
 */
export function statusAt(raw: Uint8Array, from: number): number {
  if (from + 12 > raw.length) return 0;
  return (raw[from + 9] - 48) * 100 + (raw[from + 10] - 48) * 10 + raw[from + 11] - 48;
}

/** Past the empty lines (CRLF or bare LF, as the parser skips them) at `from` in raw[from, to). */
export function skipEmptyLines(raw: Uint8Array, from: number, to: number): number {
  while (from < to && (raw[from] === 13 || raw[from] === 10)) from++;
  return from;
}

/**
 * Just past the empty line that ends a head, looked for from `from` (in the head, past any empty lines
 * before its start line) in raw[from, to), or -1. Line ends are CRLF or a bare LF, as the parser takes
 * them in a head (RFC 9112 2.2), so the end is an LF followed by LF or CRLF.
 */
function headEnd(raw: Uint8Array, from: number, to: number): number {
  for (let k = from; k + 1 < to; k++) {
    if (raw[k] !== 10) continue;
    if (raw[k + 1] === 10) return k + 2;
    if (raw[k + 1] === 13 && k + 2 < to && raw[k + 2] === 10) return k + 3;
  }
  return -1;
}
