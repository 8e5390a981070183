/**
 * @module
 * A script's response: kept bytes copied, decoded as far as asked; a failed one has status 0 and `failure`.
 */
import { KeptResponse } from "../../http/kept_response.ts";
import type { KeptBytes } from "../../http/kept_bytes.ts";
import type { Response, ResponseHeaders } from "../session.ts";

const EMPTY = new Uint8Array(0);

interface NegotiatingConn {
  tlsNegotiated(): { version: string | null; cipher: string | null } | null;
  takeDial?(): { connectingMs: number; tlsHandshakingMs: number } | null;
  /** The exchange's times (h1/connection.ts): asked on a closed socket (-1: open), written, first read. */
  askedMs?: number;
  writeStartMs?: number;
  writtenMs?: number;
  firstByteMs?: number;
  lastEventMs?: number;
}
const decoder = new TextDecoder();

/** What a response's fields and body answer from its `getAll` and `text`, over either protocol. */
export abstract class Fields implements ResponseHeaders {
  abstract getAll(name: string): string[];
  /** The fields' names as received (lower case over HTTP/1.1 and HTTP/2), repeats included. */
  abstract names(): string[];
  abstract text(): string;

  get headers(): ResponseHeaders {
    return this;
  }

  get(name: string): string | null {
    const values = this.getAll(name);
    return values.length === 0 ? null : values.join(", ");
  }

  has(name: string): boolean {
    return this.getAll(name).length > 0;
  }

  json<T = any>(): T {
    return JSON.parse(this.text());
  }
}

class ScriptResponse extends Fields implements Response {
  readonly status: number;
  /** Its bytes: `#buf[#from, #to)`, a range of a shared slab (no view made unless a field is read). */
  readonly #buf: Uint8Array;
  readonly #from: number;
  readonly #to: number;
  #kept: KeptResponse | null = null;

  /** Asked for its TLS only when `tls` is read. */
  readonly #conn: NegotiatingConn | null;

  readonly dial?: Readonly<{ connectingMs: number; tlsHandshakingMs: number }>;
  /** k6's phases in ms (NaN: not measured); waiting runs from the last byte written to the first read. */
  readonly blockedMs: number = NaN;
  readonly sendingMs: number = NaN;
  readonly waitingMs: number = NaN;
  readonly receivingMs: number = NaN;

  constructor(buf: Uint8Array, from: number, to: number, conn: NegotiatingConn | null = null) {
    super();
    this.#buf = buf;
    this.#from = from;
    this.#to = to;
    this.#conn = conn;
    const dial = conn?.takeDial?.();
    if (dial) this.dial = dial;
    if (conn?.firstByteMs !== undefined && from !== to) {
      const { askedMs = -1, writeStartMs = 0, writtenMs = 0, firstByteMs, lastEventMs = 0 } = conn;
      const dialMs = dial ? dial.connectingMs + dial.tlsHandshakingMs : 0;
      this.blockedMs = Math.max(askedMs < 0 ? 0 : writeStartMs - askedMs, dialMs);
      this.sendingMs = Math.max(0, writtenMs - writeStartMs);
      this.waitingMs = Math.max(0, firstByteMs - writtenMs);
      this.receivingMs = Math.max(0, lastEventMs - firstByteMs);
      conn.askedMs = -1;
    }
    if (from === to) {
      this.status = 0;
      return;
    }
    const status = statusOf(buf, from, to);
    // An interim head (100, 103) comes first: the final status is the kept response's.
    this.status = status >= 200 ? status : this.#read().status;
  }

  get tls(): Readonly<{ version: string | null; cipher: string | null }> | undefined {
    return this.#conn?.tlsNegotiated() ?? undefined;
  }

  getAll(name: string): string[] {
    return this.#from === this.#to ? [] : this.#read().headers(name);
  }

  names(): string[] {
    return this.#from === this.#to ? [] : this.#read().names();
  }

  text(): string {
    return this.#from === this.#to ? "" : this.#read().body;
  }

  bytes(): Uint8Array {
    return this.#from === this.#to ? EMPTY : this.#read().bodyBytes;
  }

  /** The head as received (k6's --http-debug); "" when failed. */
  headText(): string {
    const raw = this.#buf, to = this.#to;
    let end = this.#from;
    while (end + 3 < to && !(raw[end] === 13 && raw[end + 1] === 10 && raw[end + 2] === 13)) end++;
    return decoder.decode(raw.subarray(this.#from, end));
  }

  #read(): KeptResponse {
    return this.#kept ??= new KeptResponse(this.#buf.subarray(this.#from, this.#to));
  }
}

const SLAB_COPY_MAX_BYTES = 4 * 1024;
const SLAB_BYTES = 64 * 1024;
let slab = new Uint8Array(SLAB_BYTES);
let slabUsed = 0;

/** The response to a copy of `kept` the script owns: in a shared slab (free past its use), or its own. */
export function keptScriptResponse(kept: KeptBytes, conn: NegotiatingConn): ScriptResponse {
  const n = kept.length;
  if (n > SLAB_COPY_MAX_BYTES) return new ScriptResponse(kept.view().slice(), 0, n, conn);
  if (slabUsed + n > SLAB_BYTES) {
    slab = new Uint8Array(SLAB_BYTES);
    slabUsed = 0;
  }
  kept.copyInto(slab, slabUsed);
  return new ScriptResponse(slab, slabUsed, slabUsed += n, conn);
}

function statusOf(raw: Uint8Array, from: number, to: number): number {
  let at = from;
  while (at < to && (raw[at] === 13 || raw[at] === 10)) at++;
  if (at + 12 > to) return 0;
  return (raw[at + 9] - 48) * 100 + (raw[at + 10] - 48) * 10 + raw[at + 11] - 48;
}

const NO_RESPONSE = new ScriptResponse(EMPTY, 0, 0);

export class FailedResponse extends ScriptResponse {
  readonly failure: Readonly<{ kind: string; message: string }>;

  constructor(kind: string, message: string) {
    super(EMPTY, 0, 0);
    this.failure = Object.freeze({ kind, message });
  }
}

/** Failed responses by kind and message: a run's failures say few things, so each is made once. */
const failed = new Map<string, Map<string, FailedResponse>>();
let failedCount = 0;
const MAX_FAILED = 256;

export function failedResponse(
  conn: object,
  recorder: { lastErrorKind: string | null; lastErrorMessage: string },
): Response {
  const own = conn as { failureKind?: string | null; failureMessage?: string };
  const kind = own.failureKind ?? recorder.lastErrorKind;
  if (kind === null) return NO_RESPONSE;
  const message = own.failureKind ? own.failureMessage ?? "" : recorder.lastErrorMessage;
  let byMessage = failed.get(kind);
  if (byMessage === undefined) failed.set(kind, byMessage = new Map());
  let response = byMessage.get(message);
  if (response === undefined) {
    if (failedCount >= MAX_FAILED) {
      failed.clear();
      failed.set(kind, byMessage = new Map());
      failedCount = 0;
    }
    byMessage.set(message, response = new FailedResponse(kind, message));
    failedCount++;
  }
  return response;
}

export class H2ScriptResponse extends Fields implements Response {
  readonly status: number;
  readonly #fields: string[];
  readonly #body: Uint8Array;

  constructor(kept: { status: number; fields: string[]; body: Uint8Array }) {
    super();
    this.status = kept.status;
    this.#fields = kept.fields;
    this.#body = kept.body;
  }

  getAll(name: string): string[] {
    const lower = name.toLowerCase();
    const values: string[] = [];
    for (let k = 0; k < this.#fields.length; k += 2) {
      if (this.#fields[k] === lower) values.push(this.#fields[k + 1]);
    }
    return values;
  }

  names(): string[] {
    return this.#fields.filter((_, k) => k % 2 === 0);
  }

  text(): string {
    return decoder.decode(this.#body);
  }

  bytes(): Uint8Array {
    return this.#body;
  }
}

// Shared by every session's responses: a script's change to one would reach the others.
for (const made of [Fields, ScriptResponse, FailedResponse, H2ScriptResponse]) Object.freeze(made.prototype);
