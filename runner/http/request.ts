/**
 * @module
 * Turns request specs into wire bytes once; a mix becomes a smooth weighted round-robin pick table.
 */
import type { RequestSpec } from "../request_spec.ts";
import { buildTemplate, type RequestTemplate } from "./template.ts";
import {
  addsLength,
  DEFAULT_USER_AGENT,
  isTemplated,
  type RequestFields,
  requestFieldsOf,
} from "./request_fields.ts";
import { maxOf, minOf } from "../../system/large_arrays.ts";

const encoder = new TextEncoder();

export interface EncodedRequest {
  /** The whole request; empty when `fixed` is false (its bytes depend on values). */
  bytes: Uint8Array;
  /** HEAD responses carry no body even when they announce a Content-Length. */
  isHead: boolean;
  method: string;
  path: string;
  /** The request split into segments and slots (template.ts); null when only `bytes` is ever sent. */
  template: RequestTemplate | null;
  /** `bytes` is the request as it is (no placeholder); a template may still add a Cookie line. */
  fixed: boolean;
  /** Index of the endpoint its responses are recorded under (runner/endpoint_table.ts); 0 by default. */
  endpoint: number;
}

/** The request line and header lines (CRLF each): Host and User-Agent first unless the user set them. */
function headOf(hostHeader: string, spec: RequestSpec, fields: RequestFields): string {
  let head = `${spec.method} ${spec.path} HTTP/1.1\r\n`;
  if (!fields.hasHost) head += `Host: ${hostHeader}\r\n`;
  if (!fields.hasUserAgent) head += `User-Agent: ${DEFAULT_USER_AGENT}\r\n`;
  // An empty User-Agent is none, as Go's client and curl send it.
  for (const [name, value] of spec.headers) {
    if (value !== "" || name.toLowerCase() !== "user-agent") head += `${name}: ${value}\r\n`;
  }
  return head;
}

/**
 * Encodes one HTTP/1.1 request. With `names` one with placeholders becomes a template; `alwaysTemplate`:
 * always one (a cookie may join it); `literal`: never, `{{` sent as written (a script's).
 */
export function encodeRequest(
  hostHeader: string,
  spec: RequestSpec,
  names: readonly string[] = [],
  alwaysTemplate = false,
  literal = false,
): EncodedRequest {
  const fields = requestFieldsOf(hostHeader, spec);
  const head = headOf(hostHeader, spec, fields);
  const needsLength = addsLength(spec, fields);
  const templated = !literal && isTemplated(spec);
  const template = templated || alwaysTemplate
    ? buildTemplate(head, spec.body, needsLength, (n) => names.indexOf(n))
    : null;
  const base = { isHead: fields.isHead, method: spec.method, path: spec.path, template, endpoint: 0 };
  if (templated) return { ...base, bytes: EMPTY, fixed: false };
  const body = spec.body;
  const full = head + (needsLength ? `Content-Length: ${body?.length ?? 0}\r\n` : "") + "\r\n";
  const headBytes = encoder.encode(full);
  const bytes = new Uint8Array(headBytes.length + (body?.length ?? 0));
  bytes.set(headBytes, 0);
  if (body) bytes.set(body, headBytes.length);
  return { ...base, bytes, fixed: true };
}

const EMPTY = new Uint8Array(0);

/** Joins the URL's path and query with a spec path: a spec path of "/" keeps the URL's own path. */
export function resolvePath(url: URL, specPath: string): string {
  if (specPath === "/" || specPath === "") return (url.pathname || "/") + url.search;
  return specPath;
}

/** Largest table we build; weights are scaled down proportionally above it. */
const MAX_TABLE = 1000;

/** The order a mix is sent in, by smooth weighted round-robin (as nginx), so picks are spread out. */
export function buildPickTable(weights: readonly number[]): Uint16Array {
  if (weights.length === 1) return Uint16Array.of(0);
  const min = minOf(weights);
  let ints = weights.map((w) => Math.max(1, Math.round(w / min)));
  const total = ints.reduce((a, b) => a + b, 0);
  if (!(total <= MAX_TABLE)) {
    // Shares of the largest weight: ratios to the smallest overflow for weights far apart.
    const max = maxOf(weights);
    const shares = weights.map((w) => w / max);
    const sum = shares.reduce((a, b) => a + b, 0);
    ints = shares.map((s) => Math.max(1, Math.round((s * MAX_TABLE) / sum)));
  }
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

/** Weighted picks as an index increment; `offset` staggers the cycle so connections are not in lock-step. */
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

  /** `names`: the data columns templates may use; `endpoints`: each request's endpoint index (default 0). */
  constructor(
    url: URL,
    specs: readonly RequestSpec[],
    offset = 0,
    names: readonly string[] = [],
    endpoints: readonly number[] = [],
  ) {
    super(specs.map((s) => s.weight), offset);
    this.requests = specs.map((s, k) => ({
      ...encodeRequest(url.host, { ...s, path: resolvePath(url, s.path) }, names),
      endpoint: endpoints[k] ?? 0,
    }));
  }
}
