/**
 * @module
 * What a script session's request becomes: refused where the script called, or encoded once and exchanged.
 */
import { Connection } from "../../http/h1/connection.ts";
import type { H2Slot } from "../../http/h2/slot.ts";
import type { H2Request } from "../../http/h2/request.ts";
import type { EncodedRequest } from "../../http/request.ts";
import type { CookieJar } from "../../http/cookie_jar.ts";
import type { ConnectionShared } from "../../http/load_connection.ts";
import { KEEP_ALL } from "../../load/flow_plan.ts";
import type { ScriptRequests } from "./request.ts";
import type { ScriptNames } from "./names.ts";
import type { RequestOptions, Response } from "../session.ts";
import { endpointNameProblem } from "../../request_rules.ts";
import { reservedNameProblem } from "./recorder.ts";

const NO_VALUES: Uint8Array[] = [];
const NO_HEADERS: ReadonlyArray<readonly [string, string]> = [];
const encoder = new TextEncoder();
/** The most bytes of one response a session keeps (what `text()` can read); past it `body-too-large`. */
export const SCRIPT_KEPT_BYTES = 16 * 1024 * 1024;

export type SessionConnection = Connection | H2Slot;

/** A refusal of a request the script wrote (bad path, header, URL): ends the session. */
export class ScriptRequestError extends Error {
  override name = "ScriptRequestError";
}

export interface ScriptSend {
  sent: EncodedRequest | H2Request;
  name: string;
  path: string;
}

export const NO_OPTIONS: RequestOptions = {};
const HEADER_VALUE_TYPES = new Set(["string", "number", "boolean"]);
const VALUE_TEXT = 'its value must be text, e.g. { "x-id": "7" }';

const decoder = new TextDecoder();
/** What a request encodes to; one object reused, valid until the next request is encoded. */
const SENT: ScriptSend = { sent: null!, name: "", path: "" };

export function encodeScriptRequest(
  at: { requests: ScriptRequests; names: ScriptNames },
  shared: ConnectionShared,
  conn: SessionConnection,
  jar: CookieJar | null,
  method: string,
  path: string,
  options: RequestOptions,
): Readonly<ScriptSend> {
  const { requests, names } = at;
  const problem = optionsProblem(options);
  if (problem !== undefined) throw new ScriptRequestError(problem);
  let headers: ReadonlyArray<readonly [string, string]> = options.headers === undefined
    ? NO_HEADERS
    : Object.entries(options.headers);
  const badValue = headerValueProblem(headers);
  if (badValue !== undefined) throw new ScriptRequestError(badValue);
  let body = typeof options.body === "string" ? encoder.encode(options.body) : options.body;
  if (options.json !== undefined) {
    body = encoder.encode(JSON.stringify(options.json));
    if (!headers.some(([n]) => n.toLowerCase() === "content-type")) {
      headers = [...headers, ["content-type", "application/json"]];
    }
  }
  const line = jar === null || options.cookies === false
    ? null
    : jar.line(requests.url.host, path, Date.now());
  // The jar's `Cookie: ...\r\n` line's value; after the request's own Cookie field, only its other names.
  let cookie = line === null ? null : decoder.decode(line.subarray(8, -2));
  const own = cookie === null ? -1 : headers.findIndex(([n]) => n.toLowerCase() === "cookie");
  if (own >= 0) {
    const given = String(headers[own][1]), names = new Set(given.split(/; */).map((p) => p.split("=", 1)[0]));
    const rest = cookie!.split("; ").filter((p) => !names.has(p.split("=", 1)[0]));
    headers = headers.map((h, k) => k === own ? [h[0], [given, ...rest].join("; ")] : h);
    cookie = null;
  }
  const h2 = !(conn instanceof Connection);
  const encoded = requests.encode(method, path, headers, body, cookie, h2, options.origin !== undefined);
  if ("problem" in encoded) throw new ScriptRequestError(encoded.problem);
  if (headers !== NO_HEADERS) names.sent(headers);
  const name = names.shown(options.name ?? encoded.defaultName);
  // Its endpoint by the same name; encodings are cached and shared, so another endpoint gets a copy (kept).
  const endpoint = shared.recorder.endpointIndex(name, options.tags, method, options.expectedStatuses);
  SENT.sent = encoded.request.endpoint === endpoint
    ? encoded.request
    : encoded.named?.endpoint === endpoint
    ? encoded.named
    : encoded.named = { ...encoded.request, endpoint };
  SENT.name = name;
  SENT.path = path;
  return SENT;
}

function headerValueProblem(headers: ReadonlyArray<readonly [string, unknown]>): string | undefined {
  for (let k = 0; k < headers.length; k++) {
    const type = typeof headers[k][1];
    if (!HEADER_VALUE_TYPES.has(type)) {
      return `header ${JSON.stringify(headers[k][0])}: ${VALUE_TEXT} (found ${type})`;
    }
  }
  return undefined;
}

/** Why `options` cannot be sent as written, or undefined; checked before anything is encoded. */
function optionsProblem(options: { readonly [K in keyof RequestOptions]?: unknown }): string | undefined {
  const { name, timeoutMs, body, expectedStatuses: expected } = options;
  if (expected !== undefined && !(Array.isArray(expected) && expected.every((r) => r?.length === 2))) {
    return "expectedStatuses must be inclusive status ranges, e.g. [[200, 299], [404, 404]] ([]: none judged)";
  }
  if (name !== undefined && typeof name !== "string") {
    return `name must be text, e.g. { name: "item" } (found ${typeof name})`;
  }
  const reserved = name === undefined
    ? undefined
    : endpointNameProblem(name) ?? reservedNameProblem(name, "request");
  if (reserved !== undefined) return reserved;
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0 && timeoutMs < Infinity)) {
    const found = typeof timeoutMs === "number" ? timeoutMs : typeof timeoutMs;
    return "the request's timeout (timeoutMs) must be a finite number of milliseconds above 0 " +
      `(found ${found})`;
  }
  if (body !== undefined && typeof body !== "string" && !(body instanceof Uint8Array)) {
    const found = body instanceof Object ? body.constructor?.name ?? "an object" : typeof body;
    return "body must be text or bytes, a string or a Uint8Array (a value as JSON goes in json:) " +
      `(found ${found})`;
  }
  return undefined;
}

export function exchangeKept(
  conn: SessionConnection,
  sendMs: number,
  sent: EncodedRequest | H2Request,
): Promise<number> {
  if (conn instanceof Connection) return conn.exchange(sendMs, 1, keptStep(conn, sent));
  return conn.exchangeStep(sendMs, sent as H2Request, NO_VALUES, null, KEEP_ALL, SCRIPT_KEPT_BYTES);
}

/** `sent`, its response to be kept whole by `conn` for the script. */
export function keptStep(conn: Connection, sent: EncodedRequest | H2Request): EncodedRequest {
  conn.prepareStep(NO_VALUES, null, KEEP_ALL, SCRIPT_KEPT_BYTES);
  return sent as EncodedRequest;
}

/** A request with its own timeout, just sent: its deadline counts from now and its failure names it. */
export function ownDeadline(conn: SessionConnection, timeoutMs: number | undefined): void {
  if (timeoutMs === undefined || conn.deadlineMs === Infinity) return;
  conn.deadlineMs = performance.now() + timeoutMs;
  conn.exchangeTimeoutMs = timeoutMs;
}

/** A request refused where the script called: a rejected promise, its `script` error saying `why`. */
const refused = (why: string): Promise<never> => Promise.reject(new ScriptRequestError(why));

export function overlapRefusal(method: string): Promise<Response> {
  return refused(
    `s.${method.toLowerCase()}() while the session's previous request is still in flight: await each ` +
      "request (a session sends one at a time, on its connection)",
  );
}

export function pathTypeRefusal(method: string, target: unknown): Promise<Response> {
  const found = target instanceof URL ? "a URL object" : target === null ? "null" : typeof target;
  return refused(
    `s.${method.toLowerCase()}() takes its path as text, a path or a URL of the target (found ${found}); ` +
      'e.g. s.get("/items") or s.get(url.href)',
  );
}

export function overRefusal(method: string): Promise<Response> {
  return refused(
    `s.${method.toLowerCase()}() after its session ended: a session's \`s\` sends only during that ` +
      "session (send with the `s` each session receives)",
  );
}

/** A batch limit the script gave: a whole number from 1 (or Infinity), else `fallback`. */
export function batchLimit(given: number | undefined, name: string, fallback: number): number {
  if (given === undefined) return fallback;
  if (given === Infinity || (Number.isInteger(given) && given >= 1)) return given;
  throw new ScriptRequestError(
    `s.batch ${name}: ${given} is not a whole number from 1 (default ${fallback})`,
  );
}
