/**
 * @module
 * A session script's request (`s.get(path, options)`) as the bytes loadlab's HTTP/1.1 connections send:
 * the same head as a fixed request of a mix (request.ts `headOf`: Host, User-Agent; Content-Length), the
 * session's Cookie line after the headers, then the body. Never a template: what a script sends is its
 * own text, `{{` included. A request without headers, body or cookie is encoded once per method and
 * path and kept (a bounded cache) with the name it counts under, so a loop of the same GET costs a map
 * lookup. A bad method, path or
 * header is refused with a sentence (the session then ends as a `script` error), never sent.
 */
import { type EncodedRequest, headOf, hostHeaderOf } from "../../http/request.ts";
import { addsLength, requestFieldsOf } from "../../http/request_fields.ts";
import { encodeH2Request, type H2Request } from "../../http/h2/request.ts";
import { headerNameProblem, headerValueProblem, pathProblem } from "../../request_rules.ts";

const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);
/** Distinct plain requests kept encoded; past it the cache starts over (a script walking ids). */
const MAX_CACHED = 1024;
const METHOD = /^[A-Z][A-Z0-9-]*$/;

/** An encoded request and the name it counts under when the script gives none (`METHOD path`). */
export interface ScriptEncoded {
  request: EncodedRequest;
  defaultName: string;
}

/** The same over HTTP/2. */
export interface ScriptEncodedH2 {
  request: H2Request;
  defaultName: string;
}

/** Encodes a session script's requests for one worker's target. */
export class ScriptRequests {
  readonly #host: string;
  readonly #origin: string;
  /** Before each request's default name: "" for the target, an origin's own for another's requests. */
  readonly #namePrefix: string;
  readonly #cache = new Map<string, ScriptEncoded>();
  readonly #h2Cache = new Map<string, ScriptEncodedH2>();

  /**
   * `url`: where the requests go; `shownOrigin`: another origin as the script names it (its URLs' origin);
   * `routes`: the run's (an origin routed to the target's is the target's too).
   */
  constructor(
    readonly url: URL,
    shownOrigin?: string,
    readonly routes: Readonly<Record<string, string>> = {},
  ) {
    this.#host = hostHeaderOf(url);
    this.#origin = shownOrigin ?? url.origin;
    this.#namePrefix = shownOrigin ?? "";
  }

  /** The request path of `target` (a path, or a URL of the target's origin), or a problem in words. */
  pathOf(target: string): string | { problem: string } {
    if (target.startsWith("/")) return target;
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return { problem: `${JSON.stringify(target)} is neither a path (starting with /) nor a URL` };
    }
    if (url.origin !== this.#origin && this.routes[url.origin] !== this.#origin) {
      return {
        problem: `${url.origin} is not the target (${this.#origin}): sessions send on the run's ` +
          "connections to its target; use a path",
      };
    }
    return url.pathname + url.search;
  }

  /**
   * The bytes of a request to `path` (a path: see `pathOf`) with `cookieLine` (the jar's `Cookie: ...\r\n`,
   * or null), or a problem in words when the method, path or a header cannot be sent.
   */
  encode(
    method: string,
    path: string,
    headers: ReadonlyArray<readonly [string, string]>,
    body: Uint8Array | undefined,
    cookieLine: Uint8Array | null,
  ): ScriptEncoded | { problem: string } {
    const plain = headers.length === 0 && body === undefined && cookieLine === null;
    const key = plain ? method + " " + path : "";
    if (plain) {
      const kept = this.#cache.get(key);
      if (kept !== undefined) return kept;
    }
    const problem = requestProblem(method, path, headers);
    if (problem !== undefined) return { problem };
    // The head's fields read only whether there is a body (its bytes go after the head, as they are).
    const spec = {
      method,
      path,
      headers: [...headers] as [string, string][],
      body: body === undefined ? undefined : EMPTY,
      weight: 1,
    };
    const fields = requestFieldsOf(this.#host, spec);
    const head = headOf(this.#host, spec, fields);
    const needsLength = addsLength(spec, fields);
    const content = body ?? EMPTY;
    const headBytes = encoder.encode(head + (needsLength ? `Content-Length: ${content.length}\r\n` : ""));
    const extra = cookieLine ?? EMPTY;
    const bytes = new Uint8Array(headBytes.length + extra.length + 2 + content.length);
    bytes.set(headBytes, 0);
    bytes.set(extra, headBytes.length);
    bytes[headBytes.length + extra.length] = 13;
    bytes[headBytes.length + extra.length + 1] = 10;
    bytes.set(content, headBytes.length + extra.length + 2);
    const encoded: ScriptEncoded = {
      // Endpoint 0: a script names its requests at run time (its steps, recorder.ts), not in the table.
      request: { bytes, isHead: method === "HEAD", method, path, template: null, fixed: true, endpoint: 0 },
      defaultName: nameOf(method, this.#namePrefix, path),
    };
    if (plain) {
      if (this.#cache.size >= MAX_CACHED) this.#cache.clear();
      this.#cache.set(key, encoded);
    }
    return encoded;
  }

  /**
   * The same request as HTTP/2 HEADERS (and DATA) frames; `cookie` (the jar's line's value, or null)
   * joins as a `cookie` field. Cached like `encode`.
   */
  encodeH2(
    method: string,
    path: string,
    headers: ReadonlyArray<readonly [string, string]>,
    body: Uint8Array | undefined,
    cookie: string | null,
  ): ScriptEncodedH2 | { problem: string } {
    const plain = headers.length === 0 && body === undefined && cookie === null;
    const key = plain ? method + " " + path : "";
    if (plain) {
      const kept = this.#h2Cache.get(key);
      if (kept !== undefined) return kept;
    }
    const problem = requestProblem(method, path, headers);
    if (problem !== undefined) return { problem };
    const fields = [...headers] as [string, string][];
    if (cookie !== null) fields.push(["cookie", cookie]);
    let request: H2Request;
    try {
      // The encoder only reads the body (and copies it for the DATA frames).
      const spec = {
        method,
        path,
        headers: fields,
        body: body as Uint8Array<ArrayBuffer> | undefined,
        weight: 1,
      };
      request = encodeH2Request(this.url, spec, [], false, true);
    } catch (err) {
      return { problem: (err as Error).message };
    }
    const encoded = { request, defaultName: nameOf(method, this.#namePrefix, path) };
    if (plain) {
      if (this.#h2Cache.size >= MAX_CACHED) this.#h2Cache.clear();
      this.#h2Cache.set(key, encoded);
    }
    return encoded;
  }
}

/**
 * A request's name when the script gives none: its method, `origin` (another's) and path without the query.
 */
function nameOf(method: string, origin: string, path: string): string {
  const q = path.indexOf("?");
  return `${method} ${origin}${q < 0 ? path : path.slice(0, q)}`;
}

/** Why a request cannot be sent as written, or undefined. */
function requestProblem(
  method: string,
  path: string,
  headers: ReadonlyArray<readonly [string, string]>,
): string | undefined {
  if (!METHOD.test(method)) return `method ${JSON.stringify(method)} must be upper-case letters, e.g. GET`;
  const bad = pathProblem(path);
  if (bad !== undefined) return `${quoted(path)}: ${bad}`;
  for (const [name, value] of headers) {
    const problem = headerNameProblem(name) ?? headerValueProblem(value);
    if (problem !== undefined) return `header ${quoted(name)}: ${problem}`;
  }
  return undefined;
}

/**
 * `text` as a problem line shows it: as it is when printable, else quoted with its escapes; its own line
 * break cut the line (errors are one line) and lost the reason after it.
 */
function quoted(text: string): string {
  return /^[ -~]*$/.test(text) ? text : JSON.stringify(text);
}
