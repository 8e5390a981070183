/**
 * @module
 * A session script's request as the bytes sent; never a template (`{{` is the script's own text).
 */
import { type EncodedRequest, encodeRequest } from "../../http/request.ts";
import { encodeH2Request, type H2Request } from "../../http/h2/request.ts";
import { headerNameProblem, headerValueProblem, pathProblem } from "../../request_rules.ts";

/** Distinct plain requests kept encoded; past it the cache starts over (a script walking ids). */
const MAX_CACHED = 1024;
/** A method is an HTTP token, sent as the script spells it (k6's Go client keeps `patch` lower-case). */
const METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

interface ScriptEncoded {
  request: EncodedRequest | H2Request;
  defaultName: string;
  /** Its copy for another endpoint (a name of the script's), last made. */
  named?: EncodedRequest | H2Request;
}

export class ScriptRequests {
  readonly #host: string;
  /** Before each request's default name: "" for the target, an origin's own for another's requests. */
  readonly #namePrefix: string;
  readonly #cache = new PlainCache();
  readonly #h2Cache = new PlainCache();

  constructor(readonly url: URL, shownOrigin?: string) {
    this.#host = url.host;
    this.#namePrefix = shownOrigin ?? "";
  }

  /** `method` `path` as HTTP/1.1 bytes, or (`h2`) an HTTP/2 request; a plain one from the cache. */
  encode(
    method: string,
    path: string,
    headers: ReadonlyArray<readonly [string, string]>,
    body: Uint8Array | undefined,
    cookie: string | null,
    h2: boolean,
    /** The path as its caller's rules wrote it (k6's Go parse, which refuses control characters). */
    written = false,
  ): ScriptEncoded | { problem: string } {
    const plain = headers.length === 0 && body === undefined && cookie === null;
    const cache = h2 ? this.#h2Cache : this.#cache;
    const kept = plain ? cache.get(method, path) : undefined;
    if (kept !== undefined) return kept;
    const problem = requestProblem(method, path, headers, written);
    if (problem !== undefined) return { problem };
    const fields = [...headers] as [string, string][];
    // The jar's cookies go as a field after the script's own.
    if (cookie !== null) fields.push([h2 ? "cookie" : "Cookie", cookie]);
    const spec = {
      method,
      path,
      headers: fields,
      body: body as Uint8Array<ArrayBuffer> | undefined,
      weight: 1,
    };
    let request: EncodedRequest | H2Request;
    try {
      request = h2
        ? encodeH2Request(this.url, spec, [], false, true)
        : encodeRequest(this.#host, spec, [], false, true);
    } catch (err) {
      return { problem: (err as Error).message };
    }
    const encoded = { request, defaultName: nameOf(method, this.#namePrefix, path) };
    if (plain) cache.set(method, path, encoded);
    return encoded;
  }
}

/** Plain requests' encodings by method, then path: no key is made per request. */
class PlainCache {
  readonly #byMethod = new Map<string, Map<string, ScriptEncoded>>();

  get(method: string, path: string): ScriptEncoded | undefined {
    return this.#byMethod.get(method)?.get(path);
  }

  set(method: string, path: string, encoded: ScriptEncoded): void {
    let byPath = this.#byMethod.get(method);
    if (byPath === undefined) {
      if (this.#byMethod.size >= MAX_CACHED) this.#byMethod.clear();
      this.#byMethod.set(method, byPath = new Map());
    }
    if (byPath.size >= MAX_CACHED) byPath.clear();
    byPath.set(path, encoded);
  }
}

function nameOf(method: string, origin: string, path: string): string {
  const q = path.indexOf("?");
  return `${method} ${origin}${q < 0 ? path : path.slice(0, q)}`;
}

function requestProblem(
  method: string,
  path: string,
  headers: ReadonlyArray<readonly [string, string]>,
  written: boolean,
): string | undefined {
  if (!METHOD.test(method)) {
    return `method ${JSON.stringify(method)} must be letters without spaces, e.g. GET`;
  }
  const bad = written ? undefined : pathProblem(path);
  if (bad !== undefined) return `${quoted(path)}: ${bad}`;
  for (const [name, value] of headers) {
    const problem = headerNameProblem(name) ?? headerValueProblem(value);
    if (problem !== undefined) return `header ${quoted(name)}: ${problem}`;
  }
  return undefined;
}

/** `text` as a problem line shows it: as it is when printable, else quoted with its escapes. */
function quoted(text: string): string {
  return /^[ -~]*$/.test(text) ? text : JSON.stringify(text);
}
