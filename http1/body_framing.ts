/**
 * @module
 * How a final head's body is delimited and whether the connection stays open (RFC 9112 6.3). TE with CL,
 * or in HTTP/1.0, is read by TE and then closes; a forwarder and a request refuse it.
 */
import type { FramingFields } from "./framing_fields.ts";

/** How the body of the last head is delimited. */
export const Framing = { None: 0, Length: 1, Chunked: 2, UntilClose: 3 } as const;
export type Framing = typeof Framing[keyof typeof Framing];

/** A 1xx head but 101 is interim; any other three digits, 000-099 too, make a final head (RFC 9110 15). */
export function isInterim(status: number): boolean {
  return status >= 100 && status < 200 && status !== 101;
}

/** Why a final head's framing fields must be refused (a constant string), or "". */
export function framingRefusal(f: FramingFields, http10: boolean, request: boolean, verbatim: boolean) {
  if (!f.transferEncoding) return "";
  if (f.chunkedCount > 1) return "chunked listed more than once";
  if ((f.contentLength >= 0 || http10) && (verbatim || request)) {
    return f.contentLength >= 0 ? "transfer-encoding with content-length" : "transfer-encoding in HTTP/1.0";
  }
  if (request && !f.chunkedFinal) return "transfer-encoding without final chunked";
  return "";
}

/** The framing of a final head that `framingRefusal` accepted; `isHead`: a response that answers HEAD. */
export function bodyFraming(f: FramingFields, status: number, request: boolean, isHead: boolean): Framing {
  if (!request && (isHead || status === 204 || status === 304 || status === 101)) return Framing.None;
  if (f.transferEncoding && f.chunkedFinal) return Framing.Chunked;
  if (f.transferEncoding || (f.contentLength < 0 && !request)) return Framing.UntilClose;
  return f.contentLength >= 0 ? Framing.Length : Framing.None;
}

/** What the head asks (RFC 9112 9.3): HTTP/1.1 stays open unless `close`; HTTP/1.0 only on `keep-alive`. */
export function keepAliveAsked(f: FramingFields, http10: boolean): boolean {
  return http10 ? f.keepAliveToken && !f.closeToken : !f.closeToken;
}

export function framingCloses(f: FramingFields, http10: boolean, status: number, framing: Framing): boolean {
  if (framing === Framing.UntilClose) return true; // the close is the body's end
  if (status === 101) return true; // the connection is the other protocol's now
  return f.transferEncoding && (f.contentLength >= 0 || http10); // read by TE, but a smuggling sign
}
