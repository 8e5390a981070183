/**
 * @module
 * What the HTTP/1.1, HTTP/2 and HTTP/3 encoders decide alike about a request spec. Setup only.
 */
import type { RequestSpec } from "../request_spec.ts";
import { hasPlaceholder } from "./template.ts";
import { CONNECTION_NAMES } from "../../http2/hpack/static.ts";

export const DEFAULT_USER_AGENT = "loadlab";

const decoder = new TextDecoder();

/** What both encoders read of a request spec's header fields. */
export type RequestFields = Readonly<ReturnType<typeof requestFieldsOf>>;

/** The header decisions for `spec` sent to `hostHeader` (`host[:port]` of the URL). */
export function requestFieldsOf(hostHeader: string, spec: RequestSpec) {
  let authority = hostHeader, hasHost = false, hasUserAgent = false;
  for (const [name, value] of spec.headers) {
    const lower = name.toLowerCase();
    if (lower === "host") {
      hasHost = true;
      authority = value;
    } else if (lower === "user-agent") hasUserAgent = true;
  }
  const method = spec.method;
  return {
    /** The request set a Host header; `authority` is then the last one's value (else the URL's host). */
    hasHost,
    authority,
    hasUserAgent,
    /** The method carries a body even when none is given (POST, PUT, PATCH: a length of 0 is sent). */
    carriesBody: method === "POST" || method === "PUT" || method === "PATCH",
    /** A HEAD request: its response carries no body whatever it announces. */
    isHead: method === "HEAD",
  };
}

/** Whether a content-length goes with the head: a body is given or the method carries one. */
export function addsLength(spec: RequestSpec, fields: RequestFields): boolean {
  return spec.body !== undefined || fields.carriesBody;
}

/** The fields of `spec` as HTTP/2 and HTTP/3 send them: lower-case, without the forbidden ones and Host. */
export function streamHeadersOf(spec: RequestSpec, fields: RequestFields): [string, string][] {
  const headers: [string, string][] = [];
  for (const [name, value] of spec.headers) {
    const lower = name.toLowerCase();
    const forbidden = CONNECTION_NAMES.has(lower) || (lower === "te" && value.toLowerCase() !== "trailers");
    if (forbidden || lower === "host" || (lower === "user-agent" && value === "")) continue;
    headers.push([lower, value]);
  }
  if (!fields.hasUserAgent) headers.push(["user-agent", DEFAULT_USER_AGENT]);
  return headers;
}

/** A fixed request's body (an empty one is none), with its content-length added to `headers` when sent. */
export function bodyWithLength(
  spec: RequestSpec,
  fields: RequestFields,
  headers: [string, string][],
): Uint8Array | null {
  const body = spec.body !== undefined && spec.body.length > 0 ? spec.body : null;
  if (body !== null || fields.carriesBody) headers.push(["content-length", String(body?.length ?? 0)]);
  return body;
}

/** Whether `spec` holds a `{{ ... }}` anywhere a value can go (path, header names and values, body). */
export function isTemplated(spec: RequestSpec): boolean {
  if (hasPlaceholder(spec.path)) return true;
  if (spec.headers.some(([n, v]) => hasPlaceholder(n) || hasPlaceholder(v))) return true;
  return spec.body !== undefined && hasPlaceholder(decoder.decode(spec.body));
}
