/**
 * @module
 * Reads a response the connection kept for a flow step (its raw bytes, already framed by the response
 * parser, so well formed) with the parser's own scanners (http1/): the framer finds each head's end as
 * the parser did (empty lines before a status line and bare-LF line ends skipped, interim 1xx heads
 * passed over) and says whether chunked is the final coding; the field-line scanner finds each name and
 * value (obs-fold lines joined with a space); the chunk-size scanner walks a chunked body. Read: the
 * status, a header's values, and the body. Only steps that capture, check or keep cookies come here;
 * the others keep no bytes at all.
 */

import { Framing, isInterim } from "../../http1/body_framing.ts";
import { ChunkLine } from "../../http1/chunk_line.ts";
import { FieldLines } from "../../http1/field_lines.ts";
import { MessageFramer } from "../../http1/message_framer.ts";

const decoder = new TextDecoder();
const CR = 13, LF = 10, SP = 32, HTAB = 9;

/** What a step's captures and checks read of a response, over HTTP/1.1 or HTTP/2 (h2/kept.ts). */
export interface StepResponse {
  readonly status: number;
  /** Every value of header `name` (case-insensitive), in order. */
  headers(name: string): string[];
  /** The body as text (UTF-8). */
  readonly body: string;
}

/** A kept response, its head read once; the body decoded on first use. */
export class KeptResponse implements StepResponse {
  readonly status: number;
  /** The final head's field names (lower case) and values, in order. */
  readonly #names: string[] = [];
  readonly #values: string[] = [];
  readonly #raw: Uint8Array;
  readonly #bodyAt: number;
  readonly #chunked: boolean;
  #body: string | null = null;

  constructor(raw: Uint8Array) {
    this.#raw = raw;
    // The parser's framing again, one head at a time: interim 1xx heads (100 Continue, 103 Early
    // Hints) come first; the final head follows them.
    const framer = new MessageFramer({ maxHeadBytes: raw.length + 1, stopAtHeads: true });
    framer.start();
    let at = 0, headAt = -1;
    for (;;) {
      const end = framer.feed(raw, at, raw.length);
      if (end < 0) break; // no further complete head (the parser framed these bytes: not expected)
      headAt = at + framer.leadingBytes;
      at = end;
      if (!isInterim(framer.status)) break;
    }
    this.status = framer.status;
    this.#bodyAt = headAt < 0 ? raw.length : at;
    // Chunked only when it is the final coding (RFC 9112 6.3): otherwise the parser read to the close.
    this.#chunked = framer.framing === Framing.Chunked;
    if (headAt >= 0) readFields(raw, headAt, at, this.#names, this.#values);
  }

  /** Every value of header `name` (case-insensitive), in order. */
  headers(name: string): string[] {
    const lower = name.toLowerCase();
    const values: string[] = [];
    for (let k = 0; k < this.#names.length; k++) if (this.#names[k] === lower) values.push(this.#values[k]);
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
    return this.#chunked ? dechunk(bytes) : bytes;
  }
}

/**
 * The field lines of the head in raw[from, to) (the start line first), each name and value found by
 * http1/'s field-line scanner; an obs-fold line joins the value before it with one space (RFC 9112 5.2).
 */
function readFields(raw: Uint8Array, from: number, to: number, names: string[], values: string[]): void {
  const scanner = new FieldLines(false);
  scanner.reset();
  let i = raw.indexOf(LF, from) + 1; // past the start line
  while (i > 0 && i < to) {
    const c = raw[i];
    if (c === CR || c === LF) return; // the empty line that ends the head
    const folded = c === SP || c === HTAB;
    let valueAt = i;
    if (!folded) {
      if (!scanner.startName(c)) return;
      const colon = scanner.name(raw, i, to);
      if (colon < 0 || colon === to) return;
      names.push(decoder.decode(raw.subarray(i, colon)).toLowerCase());
      valueAt = colon + 1;
    }
    const lineEnd = scanner.value(raw, valueAt, to);
    if (lineEnd < 0) return;
    const value = decoder.decode(
      raw.subarray(trimStart(raw, valueAt, lineEnd), trimEnd(raw, valueAt, lineEnd)),
    );
    if (!folded) values.push(value);
    else if (values.length > 0 && value !== "") {
      const last = values.length - 1;
      values[last] = values[last] === "" ? value : `${values[last]} ${value}`;
    }
    i = lineEnd + (raw[lineEnd] === CR ? 2 : 1);
  }
}

function trimStart(raw: Uint8Array, from: number, to: number): number {
  while (from < to && (raw[from] === SP || raw[from] === HTAB)) from++;
  return from;
}

function trimEnd(raw: Uint8Array, from: number, to: number): number {
  while (to > from && (raw[to - 1] === SP || raw[to - 1] === HTAB)) to--;
  return to;
}

/** The data of a chunked body (extensions and trailers dropped), its size lines read by http1/'s scanner. */
function dechunk(bytes: Uint8Array): Uint8Array {
  const line = new ChunkLine();
  const parts: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    line.reset();
    const end = line.scan(bytes, at, bytes.length);
    if (end < 0 || end === bytes.length || line.size === 0) break;
    const dataAt = end + (bytes[end] === CR ? 2 : 1);
    parts.push(bytes.subarray(dataAt, dataAt + line.size));
    at = dataAt + line.size + 2;
  }
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
