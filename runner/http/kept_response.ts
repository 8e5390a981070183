/**
 * @module
 * Reads a response the connection kept for a flow step with the parser's own scanners (http1/).
 */

import { Framing, isInterim } from "../../http1/body_framing.ts";
import { ChunkLine } from "../../http1/chunk_line.ts";
import { FieldLines } from "../../http1/field_lines.ts";
import { MessageFramer } from "../../http1/message_framer.ts";
import { concatBytes } from "../../system/copy_bytes.ts";

const decoder = new TextDecoder();
const CR = 13, LF = 10, SP = 32, HTAB = 9;
/** A field value's optional whitespace, at its start or end (RFC 9110 5.5). */
const OWS_AROUND = /^[ \t]+|[ \t]+$/g;

/** The statuses whose Location a step with `maxRedirects` follows (as got, Artillery's client). */
export const REDIRECT_STATUSES = [300, 301, 302, 303, 304, 307, 308];

/** What a step's captures and checks read of a response, over HTTP/1.1 or HTTP/2 (h2/kept.ts). */
export interface StepResponse {
  readonly status: number;
  headers(name: string): string[];
  readonly body: string;
}

/** A kept response, read when first asked: its head once, the body decoded on first use. */
export class KeptResponse implements StepResponse {
  readonly #raw: Uint8Array;
  #head: Head | null = null;
  #body: string | null = null;

  constructor(raw: Uint8Array) {
    this.#raw = raw;
  }

  get status(): number {
    return this.#read().status;
  }

  headers(name: string): string[] {
    const { names, values } = this.#read();
    const lower = name.toLowerCase();
    const found: string[] = [];
    for (let k = 0; k < names.length; k++) if (names[k] === lower) found.push(values[k]);
    return found;
  }

  names(): string[] {
    return this.#read().names;
  }

  /** The body as text (UTF-8), chunked encoding removed. */
  get body(): string {
    this.#body ??= decoder.decode(this.bodyBytes);
    return this.#body;
  }

  /** The body's bytes, chunked encoding removed (a session script's `bytes()`). */
  get bodyBytes(): Uint8Array {
    const head = this.#read();
    const bytes = this.#raw.subarray(head.bodyAt);
    return head.chunked ? dechunk(bytes) : bytes;
  }

  #read(): Head {
    return this.#head ??= readHead(this.#raw);
  }
}

type Head = ReturnType<typeof readHead>;

/** The final head of `raw`, past any interim 1xx heads, by the parser's framing. */
function readHead(raw: Uint8Array) {
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
  const names: string[] = [], values: string[] = [];
  if (headAt >= 0) readFields(raw, headAt, at, names, values);
  return {
    status: framer.status,
    names,
    values,
    bodyAt: headAt < 0 ? raw.length : at,
    // Chunked only when it is the final coding (RFC 9112 6.3): otherwise the parser read to the close.
    chunked: framer.framing === Framing.Chunked,
  };
}

/** The field lines of the head in raw[from, to); obs-fold lines join with a space (RFC 9112 5.2). */
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
    const value = decoder.decode(raw.subarray(valueAt, lineEnd)).replace(OWS_AROUND, "");
    if (!folded) values.push(value);
    else if (values.length > 0 && value !== "") {
      const last = values.length - 1;
      values[last] = values[last] === "" ? value : `${values[last]} ${value}`;
    }
    i = lineEnd + (raw[lineEnd] === CR ? 2 : 1);
  }
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
  return concatBytes(parts);
}
