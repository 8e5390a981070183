/**
 * @module
 * Turns request specs into wire bytes once, before any load is sent, so the hot loop only writes a
 * ready `Uint8Array`. A request mix is expanded into a fixed, interleaved pick table (smooth weighted
 * round-robin) so choosing the next request is an index increment: deterministic, allocation-free, and
 * every weight is honoured exactly over one cycle instead of approximately by a random draw.
 */
import type { RequestSpec } from "../config.ts";

const encoder = new TextEncoder();

/** One encoded request of a mix. */
export interface EncodedRequest {
  bytes: Uint8Array;
  /** HEAD responses carry no body even when they announce a Content-Length. */
  isHead: boolean;
  method: string;
  path: string;
}

/** Headers the user set win over our defaults (compared case-insensitively). */
function hasHeader(headers: ReadonlyArray<readonly [string, string]>, name: string): boolean {
  const lower = name.toLowerCase();
  return headers.some(([n]) => n.toLowerCase() === lower);
}

/**
 * Encodes one HTTP/1.1 request. `hostHeader` is the URL's host (with port when not default).
 * Adds `Host`, `User-Agent` and, when there is a body, `Content-Length`, unless given.
 */
export function encodeRequest(hostHeader: string, spec: RequestSpec): EncodedRequest {
  const headers: Array<readonly [string, string]> = [];
  if (!hasHeader(spec.headers, "host")) headers.push(["Host", hostHeader]);
  if (!hasHeader(spec.headers, "user-agent")) headers.push(["User-Agent", "loadlab"]);
  for (const h of spec.headers) headers.push(h);
  const body = spec.body;
  const needsLength = body !== undefined || spec.method === "POST" || spec.method === "PUT" ||
    spec.method === "PATCH";
  if (needsLength && !hasHeader(spec.headers, "content-length")) {
    headers.push(["Content-Length", String(body?.length ?? 0)]);
  }
  let head = `${spec.method} ${spec.path} HTTP/1.1\r\n`;
  for (const [name, value] of headers) head += `${name}: ${value}\r\n`;
  head += "\r\n";
  const headBytes = encoder.encode(head);
  const bytes = new Uint8Array(headBytes.length + (body?.length ?? 0));
  bytes.set(headBytes, 0);
  if (body) bytes.set(body, headBytes.length);
  return { bytes, isHead: spec.method === "HEAD", method: spec.method, path: spec.path };
}

/** `host[:port]` as it belongs in the Host header (default ports omitted). */
export function hostHeaderOf(url: URL): string {
  return url.host;
}

/** Joins the URL's path and query with a spec path: a spec path of "/" keeps the URL's own path. */
export function resolvePath(url: URL, specPath: string): string {
  if (specPath === "/" || specPath === "") return (url.pathname || "/") + url.search;
  return specPath;
}

/** Largest table we build; weights are scaled down proportionally above it. */
const MAX_TABLE = 1000;

/**
 * The order in which a mix is sent: each entry is an index into the mix. Uses smooth weighted
 * round-robin (as nginx does for upstreams) so picks are spread out rather than bunched.
 */
export function buildPickTable(weights: readonly number[]): Uint16Array {
  if (weights.length === 1) return Uint16Array.of(0);
  const min = Math.min(...weights);
  let ints = weights.map((w) => Math.max(1, Math.round(w / min)));
  const total = ints.reduce((a, b) => a + b, 0);
  if (total > MAX_TABLE) ints = ints.map((w) => Math.max(1, Math.round((w * MAX_TABLE) / total)));
  const size = ints.reduce((a, b) => a + b, 0);
  const table = new Uint16Array(size);
  const current = new Array<number>(ints.length).fill(0);
  for (let k = 0; k < size; k++) {
    let best = 0;
    for (let j = 0; j < ints.length; j++) {
      current[j] += ints[j];
      if (current[j] > current[best]) best = j;
    }
    current[best] -= size;
    table[k] = best;
  }
  return table;
}

/**
 * Weighted picks as an index increment over `buildPickTable`: `next()` returns the index of the next
 * choice. `offset` staggers the cycle so workers and connections do not pick in lock-step.
 */
export class PickCycle {
  readonly #table: Uint16Array;
  #cursor: number;

  constructor(weights: readonly number[], offset = 0) {
    this.#table = buildPickTable(weights);
    this.#cursor = offset % this.#table.length;
  }

  next(): number {
    const i = this.#table[this.#cursor];
    this.#cursor = this.#cursor + 1 === this.#table.length ? 0 : this.#cursor + 1;
    return i;
  }
}

/** A request mix ready for the hot loop: `next()` returns the index of the request to send. */
export class RequestMix extends PickCycle {
  readonly requests: EncodedRequest[];

  constructor(url: URL, specs: readonly RequestSpec[], offset = 0) {
    super(specs.map((s) => s.weight), offset);
    const host = hostHeaderOf(url);
    this.requests = specs.map((s) => encodeRequest(host, { ...s, path: resolvePath(url, s.path) }));
  }
}
