/**
 * @module
 * Reads a response the connection kept for a flow step (its raw bytes, already framed by the response
 * parser, so well formed): the status, a header's values, and the body (chunked transfer decoded).
 * Only steps that capture, check or keep cookies come here; the others keep no bytes at all.
 */

const decoder = new TextDecoder();

/** The end of the head that starts at `from` (index after its blank line), or -1. */
function headEnd(raw: Uint8Array, from: number): number {
  for (let k = from; k + 3 < raw.length; k++) {
    if (raw[k] === 13 && raw[k + 1] === 10 && raw[k + 2] === 13 && raw[k + 3] === 10) return k + 4;
  }
  return -1;
}

/** The status code of the head starting at `from` ("HTTP/1.1 200 OK"), 0 when unreadable. */
function statusAt(raw: Uint8Array, from: number): number {
  const line = decoder.decode(raw.subarray(from, Math.min(raw.length, from + 16)));
  return Number(line.split(" ")[1]) || 0;
}

/** What a step's captures and checks read of a response, over HTTP/1.1 or HTTP/2 (h2_kept.ts). */
export interface StepResponse {
  readonly status: number;
  /** Every value of header `name` (case-insensitive), in order. */
  headers(name: string): string[];
  /** The body as text (UTF-8). */
  readonly body: string;
}

/** A kept response, its head decoded once; the body decoded on first use. */
export class KeptResponse implements StepResponse {
  readonly status: number;
  readonly #lines: string[];
  readonly #raw: Uint8Array;
  readonly #bodyAt: number;
  #body: string | null = null;

  constructor(raw: Uint8Array) {
    this.#raw = raw;
    // Interim 1xx heads (100 Continue, 103 Early Hints) come first; the final head follows them.
    let start = 0;
    let end = headEnd(raw, 0);
    while (end > 0 && statusAt(raw, start) >= 100 && statusAt(raw, start) < 200) {
      start = end;
      end = headEnd(raw, start);
    }
    this.#bodyAt = end < 0 ? raw.length : end;
    this.#lines = decoder.decode(raw.subarray(start, this.#bodyAt)).split("\r\n");
    this.status = statusAt(raw, start);
  }

  /** Every value of header `name` (case-insensitive), in order. */
  headers(name: string): string[] {
    const lower = name.toLowerCase();
    const values: string[] = [];
    for (let k = 1; k < this.#lines.length; k++) {
      const line = this.#lines[k];
      const colon = line.indexOf(":");
      if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === lower) {
        values.push(line.slice(colon + 1).trim());
      }
    }
    return values;
  }

  /** The body as text (UTF-8), chunked encoding removed. */
  get body(): string {
    if (this.#body !== null) return this.#body;
    const bytes = this.#raw.subarray(this.#bodyAt);
    const chunked = this.headers("transfer-encoding").some((v) => v.toLowerCase().includes("chunked"));
    this.#body = decoder.decode(chunked ? dechunk(bytes) : bytes);
    return this.#body;
  }
}

/** The data of a chunked body (extensions and trailers dropped). */
function dechunk(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    let lineEnd = at;
    while (lineEnd + 1 < bytes.length && !(bytes[lineEnd] === 13 && bytes[lineEnd + 1] === 10)) lineEnd++;
    const size = parseInt(decoder.decode(bytes.subarray(at, lineEnd)).split(";")[0].trim(), 16);
    if (!(size > 0)) break;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
