/**
 * @module
 * k6's response object over a loadlab session response (or, outside a session, over a fetched one):
 * `status`, `body` (text, bytes with `responseType: "binary"`, null with `"none"`), `json(selector?)`,
 * `headers` (read by any spelling of a name: `res.headers["Content-Type"]`), `cookies`, `ocsp`, `timings`
 * (`duration` and `waiting` are the time the script waited for the response; loadlab's own latency of
 * the request is in the run's results), `error` and `error_code` when the request failed (status 0: k6's
 * code and words for the error kind the run counted it under, error_codes.ts), `tls_version` and
 * `tls_cipher_suite` (asked of the connection when read, tls_info.ts).
 * The body is decoded only when read. `html(selector?)` parses the body with html.ts, which a script that
 * parses HTML imports (so no other script loads the parser).
 */
import type { Response } from "../session.ts";
import { current } from "./runtime.ts";
import { type Ocsp, ocspOf, tlsNamesOf } from "./tls_info.ts";
import { type K6Error, k6ErrorOf, UNKNOWN_FAILURE } from "./error_codes.ts";

/** The HTML parser html.ts sets when a script that parses HTML imports it (null in every other script). */
let parseHtml: ((text: string) => { find(selector: string): unknown }) | null = null;

/** Sets the parser `res.html()` uses. */
export function setHtmlParser(parse: (text: string) => { find(selector: string): unknown }): void {
  parseHtml = parse;
}

/** What a request asked for, as k6's `res.request` shows it. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A k6 response: `request` and the body's forms are made when the script reads them. */
export class K6Response {
  readonly status: number;
  readonly proto = "HTTP/1.1";
  readonly remote_ip = "";
  readonly remote_port = 0;
  readonly #waitedMs: number;
  readonly #raw: Response;
  readonly #responseType: string;
  // What was sent, kept as the request's own values (no object per request) until `res.request` is read.
  readonly #method: string;
  readonly #headers: Record<string, string>;
  readonly #body: string | Uint8Array | undefined;

  constructor(
    raw: Response,
    readonly url: string,
    method: string,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    waitedMs: number,
    responseType: string,
  ) {
    this.#raw = raw;
    this.#method = method;
    this.#headers = headers;
    this.#body = body;
    this.#responseType = responseType;
    this.status = raw.status;
    this.#waitedMs = waitedMs;
  }

  /** k6's text of why the request failed (error_codes.ts), "" when it did not. */
  get error(): string {
    return this.status === 0 ? this.#k6Error().text : "";
  }

  /**
   * k6's code of why the request failed (1050 timeout, 1212 refused, ...: error_codes.ts), 0 when it did not.
   */
  get error_code(): number {
    return this.status === 0 ? this.#k6Error().code : 0;
  }

  #k6Error(): Readonly<K6Error> {
    const failure = this.#raw.failure;
    return failure === undefined ? UNKNOWN_FAILURE : k6ErrorOf(failure.kind, failure.message);
  }

  get status_text(): string {
    return this.status === 0 ? "" : String(this.status);
  }

  /** What was sent: method, URL, header fields and the body's text (empty when none or bytes). */
  get request(): SentRequest {
    const body = typeof this.#body === "string" ? this.#body : "";
    return { method: this.#method, url: this.url, headers: this.#headers, body };
  }

  /**
   * k6's phases: `connecting` and `tls_handshaking` the connect the request opened its connection with
   * (0 on a reused one), `blocked` both; `duration` and `waiting` how long the script waited past them (k6's
   * duration leaves the connect out); sending and receiving are not split out (0).
   */
  get timings(): Record<string, number> {
    const dial = this.#raw.dial;
    const connecting = dial?.connectingMs ?? 0, tls = dial?.tlsHandshakingMs ?? 0;
    const ms = Math.max(0, this.#waitedMs - connecting - tls);
    return {
      duration: ms,
      waiting: ms,
      blocked: connecting + tls,
      connecting,
      tls_handshaking: tls,
      sending: 0,
      receiving: 0,
    };
  }

  /** k6's `tls1.3` and the like: what the response's connection negotiated (tls_info.ts), asked now. */
  get tls_version(): string | undefined {
    return tlsNamesOf(this.#origin(), this.#raw.tls).version;
  }

  /**
   * k6's `TLS_AES_128_GCM_SHA256` and the like: the suite the response's connection negotiated, asked now.
   */
  get tls_cipher_suite(): string | undefined {
    return tlsNamesOf(this.#origin(), this.#raw.tls).cipher;
  }

  /** Where the request went: its URL, or the run's target for a path. */
  #origin(): string {
    return this.url.startsWith("/") ? current()?.s.target ?? "" : this.url;
  }

  /** k6's stapled OCSP answer: loadlab asks for none, so over TLS k6's "unknown" (tls_info.ts). */
  get ocsp(): Readonly<Ocsp> {
    return ocspOf(current()?.s.target ?? this.url);
  }

  get body(): string | ArrayBuffer | null {
    if (this.#responseType === "none") return null;
    if (this.#responseType === "binary") {
      const b = this.#raw.bytes();
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
    }
    return this.#raw.status === 0 ? "" : this.#raw.text();
  }

  get headers(): Record<string, string> {
    const raw = this.#raw;
    return new Proxy({}, {
      get: (_t, name) => typeof name === "string" ? raw.headers.get(name) ?? undefined : undefined,
      has: (_t, name) => typeof name === "string" && raw.headers.has(name),
    });
  }

  get cookies(): Record<string, Array<{ name: string; value: string }>> {
    const cookies: Record<string, Array<{ name: string; value: string }>> = {};
    for (const line of this.#raw.headers.getAll("set-cookie")) {
      const pair = line.split(";")[0], eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      (cookies[name] ??= []).push({ name, value: pair.slice(eq + 1).trim() });
    }
    return cookies;
  }

  /** The body as JSON, or the value at `selector` (`items.0.id`, `#` for a length) of it. */
  json(selector?: string): unknown {
    const value = JSON.parse(this.#raw.text());
    return selector === undefined ? value : select(value, selector);
  }

  /** The body as k6's HTML selection, or the elements `selector` selects in it. */
  html(selector?: string): unknown {
    if (parseHtml === null) throw new Error("res.html(): the HTML parser was not loaded for this script");
    const doc = parseHtml(this.#raw.status === 0 ? "" : this.#raw.text());
    return selector === undefined ? doc : doc.find(selector);
  }
}

/** A gjson path's simple form: keys and indexes by `.`, `#` for an array's length. */
function select(value: unknown, selector: string): unknown {
  let at: unknown = value;
  for (const key of selector.split(".")) {
    if (at === null || typeof at !== "object") return undefined;
    if (key === "#" && Array.isArray(at)) at = at.length;
    else at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/**
 * A fetch that failed (outside a session) as a failed session response: its error's kind read from
 * Deno's message (a timeout by its signal), so `res.error_code` says what k6's would.
 */
export function fetchFailed(err: unknown): Response {
  // Deno's fetch says "fetch failed" and why in its cause.
  const cause = err instanceof Error && err.cause !== undefined ? `: ${String(err.cause)}` : "";
  const message = (err instanceof Error ? err.message : String(err)) + cause;
  const kind = err instanceof DOMException && err.name === "TimeoutError"
    ? "timeout"
    : /certificate|tls|handshake/i.test(message)
    ? "tls"
    : /dns|lookup|resolve/i.test(message)
    ? "connect"
    : /connect/i.test(message) && !/reset/i.test(message)
    ? "connect"
    : "reset";
  return { ...NO_FETCH, failure: { kind, message } };
}

const NO_FETCH: Response = {
  status: 0,
  headers: { get: () => null, has: () => false, getAll: () => [] },
  text: () => "",
  json: () => JSON.parse(""),
  bytes: () => new Uint8Array(0),
};

/**
 * A fetched response held whole, readable as a session response (for setup and teardown); null (the
 * request failed) reads as status 0, as a session's failed request does.
 */
export async function fetchedResponse(res: globalThis.Response | null): Promise<Response> {
  const bytes = res === null ? new Uint8Array(0) : new Uint8Array(await res.arrayBuffer());
  const headers = res?.headers ?? new Headers();
  return {
    status: res?.status ?? 0,
    headers: {
      get: (name) => headers.get(name),
      has: (name) => headers.has(name),
      getAll: (name) =>
        name.toLowerCase() === "set-cookie" ? headers.getSetCookie() : [headers.get(name) ?? ""],
    },
    text: () => new TextDecoder().decode(bytes),
    json: () => JSON.parse(new TextDecoder().decode(bytes)),
    bytes: () => bytes,
  };
}
