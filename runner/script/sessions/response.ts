/**
 * @module
 * A session script's response (session.ts `Response`): a copy of the bytes the connection kept, read
 * only as far as the script asks. The status is read from the status line; the head is decoded into
 * fields on the first header lookup, the body on the first `text()`/`json()`/`bytes()` (chunked coding
 * removed by kept_response.ts); over HTTP/2 a copy of the stream's head and body. A failed request's
 * response has status 0, no fields, an empty body and its `failure` (the kind and message the run counted),
 * made once per distinct failure, not per request.
 */
import { KeptResponse, mayHaveSetCookie } from "../../http/kept_response.ts";
import type { Response, ResponseHeaders } from "../session.ts";

const EMPTY = new Uint8Array(0);

/** A connection that tells what its TLS handshake negotiated (h1/connection_io.ts). */
interface NegotiatingConn {
  tlsNegotiated(): { version: string | null; cipher: string | null } | null;
  takeDial?(): { connectingMs: number; tlsHandshakingMs: number } | null;
}
const decoder = new TextDecoder();

export class ScriptResponse implements Response, ResponseHeaders {
  readonly status: number;
  readonly #raw: Uint8Array;
  #kept: KeptResponse | null = null;

  /** The connection it came on, asked for its TLS only when `tls` is read; null: none. */
  readonly #conn: NegotiatingConn | null;

  /**
   * `raw`: the response's bytes as received (head and body), owned by this response; empty: failed.
   * `conn`: the connection it came on.
   */
  /** The connect its request waited for (session.ts `Response.dial`), when it opened the connection. */
  readonly dial?: Readonly<{ connectingMs: number; tlsHandshakingMs: number }>;

  constructor(raw: Uint8Array, conn: NegotiatingConn | null = null) {
    this.#raw = raw;
    this.#conn = conn;
    const dial = conn?.takeDial?.();
    if (dial) this.dial = dial;
    if (raw.length === 0) {
      this.status = 0;
      return;
    }
    const status = statusOf(raw);
    // An interim head (100, 103) comes first: the final status is the kept response's.
    this.status = status >= 200 ? status : this.#read().status;
  }

  get headers(): ResponseHeaders {
    return this;
  }

  /** What its connection's TLS negotiated (session.ts `Response.tls`), asked now; undefined when unknown. */
  get tls(): Readonly<{ version: string | null; cipher: string | null }> | undefined {
    return this.#conn?.tlsNegotiated() ?? undefined;
  }

  get(name: string): string | null {
    const values = this.getAll(name);
    return values.length === 0 ? null : values.join(", ");
  }

  has(name: string): boolean {
    return this.getAll(name).length > 0;
  }

  getAll(name: string): string[] {
    return this.#raw.length === 0 ? [] : this.#read().headers(name);
  }

  text(): string {
    return this.#raw.length === 0 ? "" : this.#read().body;
  }

  json<T = any>(): T {
    return JSON.parse(this.text());
  }

  bytes(): Uint8Array {
    return this.#raw.length === 0 ? EMPTY : this.#read().bodyBytes;
  }

  /** Whether the head may hold a Set-Cookie field (a scan of the bytes, no decoding). */
  mayHaveSetCookie(): boolean {
    return mayHaveSetCookie(this.#raw);
  }

  /** The head as received (status line and fields, CRLF between them; k6's --http-debug); "" when failed. */
  headText(): string {
    const raw = this.#raw;
    let end = 0;
    while (end + 3 < raw.length && !(raw[end] === 13 && raw[end + 1] === 10 && raw[end + 2] === 13)) end++;
    return decoder.decode(raw.subarray(0, end));
  }

  #read(): KeptResponse {
    return this.#kept ??= new KeptResponse(this.#raw);
  }
}

/** Responses up to this size are copied into a shared slab; larger ones get a buffer of their own. */
const SLAB_COPY_MAX_BYTES = 4 * 1024;
const SLAB_BYTES = 64 * 1024;
let slab = new Uint8Array(SLAB_BYTES);
let slabUsed = 0;

/**
 * A copy of a response's kept bytes that the script owns (the connection reuses its buffer). A small
 * one is a view of a shared slab (as Node's small Buffers are), so a response costs a view and its
 * bytes instead of a buffer of its own with its allocation, accounting and sweep; a slab is freed once
 * no response of it is referenced.
 */
export function copyKept(bytes: Uint8Array): Uint8Array {
  const n = bytes.length;
  if (n > SLAB_COPY_MAX_BYTES) return bytes.slice();
  if (slabUsed + n > SLAB_BYTES) {
    slab = new Uint8Array(SLAB_BYTES);
    slabUsed = 0;
  }
  const copy = slab.subarray(slabUsed, slabUsed + n);
  copy.set(bytes);
  slabUsed += n;
  return copy;
}

/**
 * The status of the first head in `raw` (the three digits after "HTTP/1.x ", the parser checked them),
 * past the empty lines a server may send first; 0 when too short.
 */
function statusOf(raw: Uint8Array): number {
  let at = 0;
  while (at < raw.length && (raw[at] === 13 || raw[at] === 10)) at++;
  if (at + 12 > raw.length) return 0;
  return (raw[at + 9] - 48) * 100 + (raw[at + 10] - 48) * 10 + raw[at + 11] - 48;
}

/** The response of a request that got none (its failure not known). */
export const NO_RESPONSE = new ScriptResponse(EMPTY);

/** A failed request's response with why it failed: status 0, no fields, an empty body. */
class FailedResponse extends ScriptResponse {
  readonly failure: Readonly<{ kind: string; message: string }>;

  constructor(kind: string, message: string) {
    super(EMPTY);
    this.failure = Object.freeze({ kind, message });
  }
}

/** Failed responses by kind and message: a run's failures say few things, so each is made once. */
const failed = new Map<string, Map<string, FailedResponse>>();
let failedCount = 0;
const MAX_FAILED = 256;

/**
 * The response of a request that failed on `conn`: as the connection counted its failure (HTTP/1.1), else as
 * `recorder` last counted one (HTTP/2: its exchange settles in the turn its failure is counted); NO_RESPONSE
 * when neither knows.
 */
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

/** An HTTP/2 response (a copy of what the stream slot kept: h2/kept.ts `snapshot`). */
export class H2ScriptResponse implements Response, ResponseHeaders {
  readonly status: number;
  readonly #fields: string[];
  readonly #body: Uint8Array;

  constructor(kept: { status: number; fields: string[]; body: Uint8Array }) {
    this.status = kept.status;
    this.#fields = kept.fields;
    this.#body = kept.body;
  }

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

  getAll(name: string): string[] {
    const lower = name.toLowerCase();
    const values: string[] = [];
    for (let k = 0; k < this.#fields.length; k += 2) {
      if (this.#fields[k] === lower) values.push(this.#fields[k + 1]);
    }
    return values;
  }

  /** Whether a Set-Cookie field came (the fields are decoded already). */
  mayHaveSetCookie(): boolean {
    return this.has("set-cookie");
  }

  text(): string {
    return decoder.decode(this.#body);
  }

  json<T = any>(): T {
    return JSON.parse(this.text());
  }

  bytes(): Uint8Array {
    return this.#body;
  }
}

// Shared by every session's responses: a script's change to one (a `json` of its own) reached the others'.
for (const made of [ScriptResponse, FailedResponse, H2ScriptResponse]) Object.freeze(made.prototype);
