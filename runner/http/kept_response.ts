/**
 * @module
 * Reads a response the connection kept for a flow step (its raw bytes, already framed by the response
 * parser, so well formed, and read here as the parser read it: empty lines before a status line and bare-LF
 * line ends skipped, interim 1xx heads passed over, obs-fold lines joined with a space): the status, a
 * header's values, and the body (chunked transfer decoded when chunked is the final coding).
 * Only steps that capture, check or keep cookies come here; the others keep no bytes at all.
 */

import { isInterim } from "../../http1/body_framing.ts";
import { headEnd, skipEmptyLines, statusAt } from "./kept_bytes.ts";

const decoder = new TextDecoder();

/** The head's field lines (the start line first), each obs-fold joined to its field with a space. */
function fieldLines(head: string): string[] {
  const lines: string[] = [];
  for (const line of head.split(/\r?\n/)) {
    const folded = line.length > 0 && (line[0] === " " || line[0] === "\t") && lines.length > 1;
    if (folded) lines[lines.length - 1] = `${lines[lines.length - 1].trimEnd()} ${line.trim()}`;
    else lines.push(line);
  }
  return lines;
}

/** What a step's captures and checks read of a response, over HTTP/1.1 or HTTP/2 (h2/kept.ts). */
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
    let start = skipEmptyLines(raw, 0, raw.length);
    let end = headEnd(raw, start, raw.length);
    while (end > 0 && isInterim(statusAt(raw, start))) {
      start = skipEmptyLines(raw, end, raw.length);
      end = headEnd(raw, start, raw.length);
    }
    this.#bodyAt = end < 0 ? raw.length : end;
    this.#lines = fieldLines(decoder.decode(raw.subarray(start, this.#bodyAt)));
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
    this.#body ??= decoder.decode(this.bodyBytes);
    return this.#body;
  }

  /** The body's bytes, chunked encoding removed (a session script's `bytes()`). */
  get bodyBytes(): Uint8Array {
    const bytes = this.#raw.subarray(this.#bodyAt);
    // Chunked only when it is the final coding (RFC 9112 6.3): otherwise the parser read to the close.
    const codings = this.headers("transfer-encoding").join(",").split(",").map((c) => c.trim()).filter((c) =>
      c
    );
    const chunked = codings.length > 0 && codings[codings.length - 1].toLowerCase() === "chunked";
    return chunked ? dechunk(bytes) : bytes;
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
