/**
 * @module
 * Reads a response the connection kept for a flow step (its raw bytes, already framed by the response
 * parser, so well formed): the status, a header's values, and the body (chunked transfer decoded).
 * Only steps that capture, check or keep cookies come here; the others keep no bytes at all.
 */

const decoder = new TextDecoder();

/** The end of the head (index after the blank line), or -1. */
function headEnd(raw: Uint8Array): number {
  for (let k = 0; k + 3 < raw.length; k++) {
    if (raw[k] === 13 && raw[k + 1] === 10 && raw[k + 2] === 13 && raw[k + 3] === 10) return k + 4;
  }
  return -1;
}

/** A kept response, its head decoded once; the body decoded on first use. */
export class KeptResponse {
  readonly status: number;
  readonly #lines: string[];
  readonly #raw: Uint8Array;
  readonly #bodyAt: number;
  #body: string | null = null;

  constructor(raw: Uint8Array) {
    this.#raw = raw;
    const end = headEnd(raw);
    this.#bodyAt = end < 0 ? raw.length : end;
    const head = decoder.decode(raw.subarray(0, this.#bodyAt));
    // Interim 1xx heads come first; the final head is the last one.
    const heads = head.split("\r\n\r\n").filter((h) => h.length > 0);
    this.#lines = (heads.at(-1) ?? "").split("\r\n");
    this.status = Number(this.#lines[0]?.split(" ")[1] ?? 0);
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
