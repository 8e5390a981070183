/**
 * @module
 * What the HTTP/1.1 and HTTP/2 encoders decide alike about a request spec: the fields we add unless set
 * (Host or `:authority`, User-Agent), whether a length is added, and whether it is a template. Setup only.
 */
import type { RequestSpec } from "../request_spec.ts";
import { hasPlaceholder } from "./template.ts";

/** The User-Agent we send unless the request sets one. */
export const DEFAULT_USER_AGENT = "loadlab";

const decoder = new TextDecoder();

/** What both encoders read of a request spec's header fields. */
export interface RequestFields {
  /** The request set a Host header; `authority` is then the last one's value (else the URL's host). */
  readonly hasHost: boolean;
  readonly authority: string;
  readonly hasUserAgent: boolean;
  /** The method carries a body even when none is given (POST, PUT, PATCH: a length of 0 is sent). */
  readonly carriesBody: boolean;
  /** A HEAD request: its response carries no body whatever it announces. */
  readonly isHead: boolean;
}

/** The header decisions for `spec` sent to `hostHeader` (`host[:port]` of the URL). */
export function requestFieldsOf(hostHeader: string, spec: RequestSpec): RequestFields {
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
    hasHost,
    authority,
    hasUserAgent,
    carriesBody: method === "POST" || method === "PUT" || method === "PATCH",
    isHead: method === "HEAD",
  };
}

/** Whether a content-length goes with the head: a body is given or the method carries one. */
export function addsLength(spec: RequestSpec, fields: RequestFields): boolean {
  return spec.body !== undefined || fields.carriesBody;
}

/** Whether `spec` holds a `{{ ... }}` anywhere a value can go (path, header names and values, body). */
export function isTemplated(spec: RequestSpec): boolean {
  if (hasPlaceholder(spec.path)) return true;
  if (spec.headers.some(([n, v]) => hasPlaceholder(n) || hasPlaceholder(v))) return true;
  return spec.body !== undefined && hasPlaceholder(decoder.decode(spec.body));
}

/** The body of `spec` as text (templates split it into parts), or "" without one. */
export function bodyTextOf(spec: RequestSpec): string {
  return spec.body === undefined ? "" : decoder.decode(spec.body);
}
