/**
 * @module
 * k6's response object over a session's (or a fetched) response; its body and `res.request` made when read.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import type { Response } from "../session.ts";
import { current } from "./runtime.ts";
import { type Ocsp, ocspOf, tlsNamesOf } from "./tls_info.ts";
import { type K6Error, k6ErrorOf, thrownByGo, UNKNOWN_FAILURE } from "./errors/error_codes.ts";
import { setCookiePair } from "../sessions/cookies.ts";
import { FailedResponse, Fields } from "../sessions/response.ts";
import { DEFAULT_USER_AGENT } from "../../http/request_fields.ts";
import { phasesOf, type RequestHop } from "./points_out.ts";
import { jsonErrorOf } from "./errors/json_error.ts";

/** A header's name as Go writes it and k6 shows it: `x-request-id` is `X-Request-Id`. */
export const canonicalHeader = (name: string): string =>
  name.toLowerCase().replace(/(^|-)([a-z])/g, (_, dash, c) => dash + c.toUpperCase());

/** What html.ts sets when a script that parses HTML imports it (so no other script loads it). */
let parseHtml: ((text: string) => { find(selector: string): unknown }) | null = null;

export function setHtmlParser(parse: typeof parseHtml): void {
  parseHtml = parse;
}

type SentRequest = { method: string; url: string; headers: Record<string, string[]>; body: string };

export class K6Response {
  readonly status: number;
  readonly proto = "HTTP/1.1";
  readonly #raw: Response;
  readonly #responseType: string;
  readonly url: string;
  // Kept as the hop's own values (no object per request) until `res.request` is read.
  readonly #method: string;
  readonly #headers: Record<string, string>;
  readonly #body: string | Uint8Array | undefined;
  #fields: Record<string, string> | null = null;

  constructor(raw: Response, hop: RequestHop, responseType: string) {
    this.#raw = raw, this.#method = hop.verb, this.#headers = hop.headers, this.#body = hop.sent;
    this.#responseType = responseType, this.status = raw.status, this.url = hop.place.shown;
  }

  /** The body's bytes, decoded as k6 decodes a body by its Content-Encoding (gzip, deflate, br). */
  #bytes(): Uint8Array {
    const inflate = INFLATE[this.#raw.headers.get("content-encoding")?.trim().toLowerCase() ?? ""];
    return inflate ? new Uint8Array(inflate(this.#raw.bytes())) : this.#raw.bytes();
  }

  #text(): string {
    return this.#raw.headers.has("content-encoding") ? DECODER.decode(this.#bytes()) : this.#raw.text();
  }

  get error(): string {
    return this.status === 0 ? this.#k6Error().text : "";
  }

  /** k6's code of a failure, or of a 4xx or 5xx answer (1000 + its status, its `error` empty). */
  get error_code(): number {
    return this.status === 0 ? this.#k6Error().code : this.status >= 400 ? 1000 + this.status : 0;
  }

  #k6Error(): Readonly<K6Error> {
    const failure = this.#raw.failure;
    return failure === undefined ? UNKNOWN_FAILURE : k6ErrorOf(failure.kind, failure.message);
  }

  /** The address the request went to (where the run sends its origin); `localhost` read as 127.0.0.1. */
  get remote_ip(): string {
    const host = this.#remote()?.hostname.replace(/^\[|\]$/g, "") ?? "";
    return host === "localhost" ? "127.0.0.1" : host;
  }

  get remote_port(): number {
    const to = this.#remote();
    return to === null ? 0 : Number(to.port || (to.protocol === "https:" ? 443 : 80));
  }

  #remote(): URL | null {
    if (this.status === 0 || !URL.canParse(this.url)) return null;
    const s = current()?.s;
    return new URL(s === undefined ? this.url : s.route(this.url));
  }

  /** The status line past its protocol, as Go gives k6 (`418 I'm a teapot`); over HTTP/2, the table's. */
  get status_text(): string {
    if (this.status === 0) return "";
    const line = (this.#raw as { headText?: () => string }).headText?.().split("\r\n", 1)[0] ?? "";
    const status = line.slice(line.indexOf(" ") + 1).trimStart();
    if (status.startsWith(`${this.status}`)) return status;
    return `${this.status} ${process.getBuiltinModule("node:http").STATUS_CODES[this.status] ?? ""}`
      .trimEnd();
  }

  /** What was sent, its headers as k6's: each canonical name's values (`{ "User-Agent": ["loadlab"] }`). */
  get request(): SentRequest {
    const body = typeof this.#body === "string" ? this.#body : "", headers: Record<string, string[]> = {};
    for (const name in this.#headers) (headers[canonicalHeader(name)] ??= []).push(this.#headers[name]);
    headers["User-Agent"] ??= [DEFAULT_USER_AGENT];
    return { method: this.#method, url: this.url, headers, body };
  }

  /** k6's phases as measured (0 where none); setup()'s and teardown()'s fetches wait whole as `waiting`. */
  get timings(): Record<string, number> {
    const [blocked, connecting, tls_handshaking, sending, waiting, receiving] = phasesOf(this.#raw);
    const duration = sending + waiting + receiving;
    return { duration, waiting, blocked, connecting, tls_handshaking, sending, receiving };
  }

  get tls_version(): string | undefined {
    return tlsNamesOf(this.#origin(), this.#raw.tls).version;
  }

  get tls_cipher_suite(): string | undefined {
    return tlsNamesOf(this.#origin(), this.#raw.tls).cipher;
  }

  #origin(): string {
    return this.url.startsWith("/") ? current()?.s.target ?? "" : this.url;
  }

  /** k6's stapled OCSP answer: loadlab asks for none, so over TLS k6's "unknown". */
  get ocsp(): Readonly<Ocsp> {
    return ocspOf(current()?.s.target ?? this.url);
  }

  /** k6 keeps no body (null) of no response, one whose status has none (1xx, 204, 304), or type none. */
  #bodiless(): boolean {
    const s = this.#raw.status;
    return this.#responseType === "none" || s < 200 || s === 204 || s === 304;
  }

  /** k6's error for json() or html() of a response with no body. */
  #nullBody(as: string): Error {
    return thrownByGo(
      `the body is null so we can't transform it to ${as} - this likely was because of a ` +
        "request error getting the response",
    );
  }

  get body(): string | ArrayBuffer | null {
    if (this.#bodiless()) return null;
    if (this.#responseType === "binary") {
      const b = this.#bytes();
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
    }
    return this.#text();
  }

  /** The response's fields by canonical name (`Content-Type`), as Go's client gives k6; made when read. */
  get headers(): Record<string, string> {
    if (this.#fields !== null) return this.#fields;
    const raw = this.#raw, fields: Record<string, string> = {};
    for (const name of raw instanceof Fields ? raw.names() : []) {
      fields[canonicalHeader(name)] ??= raw.headers.get(name) ?? "";
    }
    return this.#fields = fields;
  }

  get cookies(): Record<string, Array<ReturnType<typeof cookieOf>>> {
    const cookies: Record<string, Array<ReturnType<typeof cookieOf>>> = {};
    for (const line of this.#raw.headers.getAll("set-cookie")) {
      const c = cookieOf(line);
      if (c.name !== "") (cookies[c.name] ??= []).push(c);
    }
    return cookies;
  }

  /** The body parsed (k6's GoError where it is no JSON); with a selector (k6's gjson path) undefined then. */
  json(selector?: string): unknown {
    if (this.#bodiless()) throw this.#nullBody("JSON");
    try {
      const body = JSON.parse(this.#text());
      return selector === undefined ? body : select(body, pathKeys(selector));
    } catch (e) {
      if (selector !== undefined) return undefined;
      throw e instanceof SyntaxError ? jsonErrorOf(this.#bytes(), e) : e;
    }
  }

  html(selector?: string): unknown {
    if (parseHtml === null) throw new Error("res.html(): the HTML parser was not loaded for this script");
    if (this.#bodiless()) throw this.#nullBody("HTML");
    const doc = parseHtml(this.#text());
    return selector === undefined ? doc : doc.find(selector);
  }
}

/** A Set-Cookie as k6 (Go) reads it: `max_age` -1 for `Max-Age=0`, `expires` in ms (Go's zero time: none). */
function cookieOf(line: string) {
  const [name, value] = setCookiePair(line) ?? ["", ""];
  const a = new Map(
    line.split(";").slice(1).map((p) => p.trim().split(/=(.*)/s, 2)).map(([k, v]) => [k.toLowerCase(), v]),
  );
  const c = { name, value, domain: a.get("domain") ?? "", path: a.get("path") ?? "" };
  const flags = { http_only: a.has("httponly"), secure: a.has("secure") }, age = +(a.get("max-age") ?? 0);
  const expires = Date.parse(a.get("expires") ?? "") || -6795364578871;
  return { ...c, ...flags, max_age: a.has("max-age") && age <= 0 ? -1 : age, expires };
}

/** gjson's path `keys` (`\.` a dot of a key): `#` is an array's length, `#.key` each element's key. */
function select(value: unknown, keys: string[]): unknown {
  let at: unknown = value;
  for (let k = 0; k < keys.length; k++) {
    if (at === null || typeof at !== "object") return undefined;
    const query = /^#\((.*)\)(#?)$/.exec(keys[k]);
    if (query && Array.isArray(at)) {
      const found = at.filter((x) => matches(x, query[1]));
      const rest = keys.slice(k + 1);
      if (query[2] === "") return found.length === 0 ? undefined : select(found[0], rest);
      return found.map((x) => select(x, rest)).filter((x) => x !== undefined);
    }
    if (keys[k] === "#" && Array.isArray(at)) {
      if (k === keys.length - 1) return at.length;
      return at.map((x) => select(x, keys.slice(k + 1))).filter((x) => x !== undefined);
    }
    // A key with `*` or `?` is gjson's pattern: the object's first key it matches.
    const key = /[*?]/.test(keys[k]) ? Object.keys(at).find((name) => glob(keys[k]).test(name)) : keys[k];
    // An array's key is an index (its `length` is no key), an object's its own (not `constructor`).
    if (key === undefined) return undefined;
    if (Array.isArray(at) ? !/^\d+$/.test(key) : !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** A gjson path's keys: split at dots outside a query's parentheses, `\\.` kept as a dot of a key. */
function pathKeys(path: string): string[] {
  const keys = [""];
  for (let i = 0, depth = 0; i < path.length; i++) {
    const c = path[i];
    if (c === "\\" && i + 1 < path.length) keys[keys.length - 1] += path[++i];
    else if (c === "." && depth === 0) keys.push("");
    else keys[keys.length - 1] += c, depth += c === "(" ? 1 : c === ")" ? -1 : 0;
  }
  return keys;
}

/** gjson's pattern (`*` any run of characters, `?` one) as a RegExp. */
const glob = (pattern: string) =>
  new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*").replaceAll("?", ".")}$`);

/** Whether `item` passes gjson's query `path op value` (`==`, `!=`, `<`, `<=`, `>`, `>=`, `%`, `!%`). */
function matches(item: unknown, query: string): boolean {
  const [, path, op, raw] = /^(.*?)\s*(==|!=|<=|>=|<|>|!%|%)\s*(.*)$/.exec(query) ?? [, query, "", ""];
  const got = select(item, pathKeys(path.trim()));
  if (op === "") return got !== undefined;
  const text = /^"(.*)"$/.exec(raw)?.[1];
  const want: unknown = text ?? (raw === "true" || raw === "false" ? raw === "true" : Number(raw));
  if (op === "%" || op === "!%") {
    return typeof got === "string" && glob(text ?? raw).test(got) === (op === "%");
  }
  if (typeof got !== typeof want) return op === "!=";
  const [a, b] = [got as number | string, want as number | string];
  return { "==": a === b, "!=": a !== b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b }[op]!;
}

/** A fetch that failed (outside a session) as a failed session response, its error kind read from Deno's. */
export function fetchFailed(err: unknown): Response {
  const cause = err instanceof Error && err.cause !== undefined ? `: ${String(err.cause)}` : "";
  const message = (err instanceof Error ? err.message : String(err)) + cause;
  const kind = err instanceof DOMException && err.name === "TimeoutError"
    ? "timeout"
    : /certificate|tls|handshake/i.test(message)
    ? "tls"
    : /dns|lookup|resolve/i.test(message) || (/connect/i.test(message) && !/reset/i.test(message))
    ? "connect"
    : "reset";
  return new FailedResponse(kind, message);
}

const INFLATE: Record<string, ((b: Uint8Array) => Uint8Array) | undefined> = {
  gzip: gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};
const DECODER = new TextDecoder();

/** A response `fetch` gave outside a session, its body read whole; `waitingMs` the wait from `startMs`. */
export async function fetchedResponse(res: globalThis.Response, startMs: number): Promise<Response> {
  const body = new Uint8Array(await res.arrayBuffer());
  return new FetchedResponse(res.status, res.headers, body, performance.now() - startMs);
}

class FetchedResponse extends Fields implements Response {
  constructor(
    readonly status: number,
    private readonly fields: Headers,
    private readonly body: Uint8Array,
    readonly waitingMs: number,
  ) {
    super();
  }

  getAll(name: string): string[] {
    if (name.toLowerCase() === "set-cookie") return this.fields.getSetCookie();
    const value = this.fields.get(name);
    return value === null ? [] : [value];
  }

  names(): string[] {
    return [...this.fields.keys()];
  }

  text(): string {
    return new TextDecoder().decode(this.body);
  }

  bytes(): Uint8Array {
    return this.body;
  }
}
