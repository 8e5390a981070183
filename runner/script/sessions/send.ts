/**
 * @module
 * What a script session's request becomes: refused (a request the script wrote badly, one sent while the
 * session's previous request is in flight, one on an `s` kept past its session, a batch limit that is
 * not a whole number), or encoded once and exchanged on a connection with its response kept for the
 * script. Each refusal is a rejected promise made where the script called, so it counts as a `script`
 * error at the script's line and nothing is sent: after the session its connection is another session's.
 */
import { Connection } from "../../http/h1/connection.ts";
import type { H2Slot } from "../../http/h2/slot.ts";
import type { H2ArrivalConnection } from "../../http/h2/arrival.ts";
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
const decoder = new TextDecoder();
/** The most bytes of one response a session keeps (what `text()` can read); past it `body-too-large`. */
export const SCRIPT_KEPT_BYTES = 16 * 1024 * 1024;

/** What a session's requests go on: an HTTP/1.1 connection, an h2 stream slot, or a per-arrival h2 lane. */
export type SessionConnection = Connection | H2Slot | H2ArrivalConnection;

/** A refusal of a request the script wrote (bad path, header, URL): ends the session. */
export class ScriptRequestError extends Error {
  override name = "ScriptRequestError";
}

/** A request encoded for the session's connection: what goes out, under which name, to which path. */
export interface ScriptSend {
  sent: EncodedRequest | H2Request;
  name: string;
  path: string;
}

/**
 * What a header's value may be: text, or a number or boolean written as text. A Symbol (or an object)
 * failed deep in the encoder, where the stack no longer reached the script's line.
 */
const HEADER_VALUE_TYPES = new Set(["string", "number", "boolean"]);

/** Encodes the script's request for `conn` (a refusal throws `ScriptRequestError`: nothing is sent). */
export function encodeScriptRequest(
  at: { requests: ScriptRequests; names: ScriptNames; shared: ConnectionShared },
  conn: SessionConnection,
  jar: CookieJar | null,
  request: { method: string; target: string; options: RequestOptions },
): ScriptSend {
  const { requests, names } = at;
  const { method, target, options } = request;
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
  const path = requests.pathOf(target);
  if (typeof path !== "string") throw new ScriptRequestError(path.problem);
  const cookieLine = jar === null ? null : jar.line(requests.url.host, path, Date.now());
  const encoded = conn instanceof Connection
    ? requests.encode(method, path, headers, body, cookieLine)
    : requests.encodeH2(method, path, headers, body, cookieLine === null ? null : cookieValue(cookieLine));
  if ("problem" in encoded) throw new ScriptRequestError(encoded.problem);
  if (headers !== NO_HEADERS) names.sent(headers);
  const name = names.shown(options.name ?? encoded.defaultName);
  // Its endpoint by the same name; encodings are cached and shared, so another endpoint gets a copy.
  const endpoint = at.shared.recorder.endpointIndex(name, options.tags);
  const sent = encoded.request.endpoint === endpoint ? encoded.request : { ...encoded.request, endpoint };
  return { sent, name, path };
}

/** Why a header's value cannot be sent (one that is not text, a number or a boolean), or undefined. */
function headerValueProblem(headers: ReadonlyArray<readonly [string, unknown]>): string | undefined {
  for (const [name, value] of headers) {
    if (HEADER_VALUE_TYPES.has(typeof value)) continue;
    return `header ${
      JSON.stringify(name)
    }: its value must be text, e.g. { "x-id": "7" } (found ${typeof value})`;
  }
  return undefined;
}

/**
 * Why `options` cannot be sent as the script wrote them, or undefined. Checked before anything is
 * encoded: a name that is not text failed after the response, away from the script's line; a NaN or
 * Infinity timeout is none a timer keeps; a Blob or number body failed inside the encoder in its words.
 */
function optionsProblem(options: { readonly [K in keyof RequestOptions]?: unknown }): string | undefined {
  const { name, timeoutMs, body } = options;
  if (name !== undefined && typeof name !== "string") {
    return `name must be text, e.g. { name: "item" } (found ${typeof name})`;
  }
  const reserved = name === undefined
    ? undefined
    : endpointNameProblem(name) ?? reservedNameProblem(name, "request");
  if (reserved !== undefined) return reserved;
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0 && timeoutMs < Infinity)) {
    return `the request's timeout (timeoutMs) must be a finite number of milliseconds above 0 (found ${
      typeof timeoutMs === "number" ? timeoutMs : typeof timeoutMs
    })`;
  }
  if (body !== undefined && typeof body !== "string" && !(body instanceof Uint8Array)) {
    return `body must be text or bytes, a string or a Uint8Array (a value as JSON goes in json:) (found ${
      body instanceof Object ? body.constructor?.name ?? "an object" : typeof body
    })`;
  }
  return undefined;
}

/** The exchange of `sent` from `sendMs` on `conn`, its response kept for the script; its response count. */
export function exchangeKept(
  conn: SessionConnection,
  sendMs: number,
  sent: EncodedRequest | H2Request,
): Promise<number> {
  if (conn instanceof Connection) {
    conn.prepareStep(NO_VALUES, null, KEEP_ALL, SCRIPT_KEPT_BYTES);
    return conn.exchange(sendMs, 1, sent as EncodedRequest);
  }
  return conn.exchangeStep(sendMs, sent as H2Request, NO_VALUES, null, KEEP_ALL, SCRIPT_KEPT_BYTES);
}

/**
 * The same, its end told to `on.settled` rather than by a promise: on an HTTP/1.1 connection straight
 * from the exchange's end (h1/connection_io.ts `exchangeInto`), with no promise of the exchange's.
 */
export function exchangeKeptInto(
  conn: SessionConnection,
  sendMs: number,
  nowMs: number,
  sent: EncodedRequest | H2Request,
  on: { settled(got: number): void; settleFailed(err: unknown): void },
): void {
  if (!(conn instanceof Connection)) {
    exchangeKept(conn, sendMs, sent).then(on.settled, on.settleFailed);
    return;
  }
  conn.prepareStep(NO_VALUES, null, KEEP_ALL, SCRIPT_KEPT_BYTES);
  conn.exchangeInto(sendMs, nowMs, sent as EncodedRequest, on.settled, on.settleFailed);
}

/**
 * A request of a script with a timeout of its own, just sent: its deadline counts from now, and its failure
 * names that timeout rather than the run's.
 */
export function ownDeadline(conn: SessionConnection, timeoutMs: number | undefined): void {
  if (timeoutMs === undefined || conn.deadlineMs === Infinity) return;
  conn.deadlineMs = performance.now() + timeoutMs;
  conn.exchangeTimeoutMs = timeoutMs;
}

/**
 * The refusal of a request sent while the session's previous one is in flight: a rejected promise (a
 * `script` error at the caller's line when awaited or dropped), never a second connection.
 */
export function overlapRefusal(method: string): Promise<Response> {
  return Promise.reject(
    new ScriptRequestError(
      `s.${method.toLowerCase()}() while the session's previous request is still in flight: await each ` +
        "request (a session sends one at a time, on its connection)",
    ),
  );
}

/**
 * The refusal of a path that is not text (a URL object, a number): the engine read it as a string and
 * failed in its own words (`target.charCodeAt is not a function`).
 */
export function pathTypeRefusal(method: string, target: unknown): Promise<Response> {
  const found = target instanceof URL ? "a URL object" : target === null ? "null" : typeof target;
  return Promise.reject(
    new ScriptRequestError(
      `s.${method.toLowerCase()}() takes its path as text, a path or a URL of the target (found ${found}); ` +
        'e.g. s.get("/items") or s.get(url.href)',
    ),
  );
}

/**
 * The refusal of a request on a session that has ended (its `s` kept by the script past it): a `script`
 * error at the caller's line, never a request on the connection another session now has.
 */
export function overRefusal(method: string): Promise<Response> {
  return Promise.reject(
    new ScriptRequestError(
      `s.${method.toLowerCase()}() after its session ended: a session's \`s\` sends only during that ` +
        "session (send with the `s` each session receives)",
    ),
  );
}

/**
 * A batch limit the script gave (`s.batch(send, { parallel })`): a whole number from 1 (or Infinity), else
 * `fallback`.
 */
export function batchLimit(given: number | undefined, name: string, fallback: number): number {
  if (given === undefined) return fallback;
  if (given === Infinity || (Number.isInteger(given) && given >= 1)) return given;
  throw new ScriptRequestError(
    `s.batch ${name}: ${given} is not a whole number from 1 (default ${fallback})`,
  );
}

/** The value of the jar's `Cookie: ...\r\n` line (HTTP/2 sends it as a `cookie` field). */
function cookieValue(line: Uint8Array): string {
  return decoder.decode(line.subarray(8, line.length - 2));
}
