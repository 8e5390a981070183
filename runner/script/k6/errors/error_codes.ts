/**
 * @module
 * k6's `res.error_code` and `res.error` of a failed request, from the kind and message loadlab counted it
 * under, in k6's codes and words (k6's lib/netext/httpext/error_codes.go).
 */
import { ERROR_NAMES } from "../../../../http2/frames.ts";

export type K6Error = { code: number; text: string };

/** The HTTP/2 error code a message names (`RST_STREAM CANCEL`), else `fallback`. */
function h2CodeIn(message: string, fallback: string): string {
  for (const name of ERROR_NAMES) if (message.includes(name)) return name;
  return fallback;
}

function h2Error(base: number, words: string, name: string): K6Error {
  return { code: base + 1 + ERROR_NAMES.indexOf(name), text: `http2: ${words} with http2 ErrCode ${name}` };
}

/**
 * What k6 throws for a failed request under `throw`: Go's url.Error (`Post "URL": cause`), a GoError; an
 * asyncRequest's promise (`beside`) rejects with the Go value itself: not an Error, no `message`.
 */
export function goError(
  verb: string,
  url: string,
  error: string,
  failure?: { message: string },
  beside = false,
): Error | GoUrlError {
  const u = URL.parse(url), host = u?.hostname, port = u?.port || (u?.protocol === "https:" ? "443" : "80");
  // The address dialed: as the failure names it, else the URL's own when it is an address.
  const literal = host && /^[\d.]+$|^\[/.test(host) ? `${host}:${port}` : undefined;
  const dialed = / connecting to (\S+)$/.exec(failure?.message ?? "")?.[1] ?? literal;
  const cause = dialed && error === "dial: connection refused"
    ? `dial tcp ${dialed}: connect: connection refused`
    : dialed && error === "dial: i/o timeout"
    ? `dial tcp ${dialed}: i/o timeout`
    : host && error === "lookup: no such host"
    ? `lookup ${host}: no such host`
    : error;
  const op = verb.charAt(0).toUpperCase() + verb.slice(1).toLowerCase();
  return beside ? new GoUrlError(op, url, cause) : thrownByGo(`${op} "${url}": ${cause}`);
}

/** Go's url.Error as k6 hands it to a promise: its fields `op` and `url`, its text by `String(e)`. */
class GoUrlError {
  readonly #cause: string;
  constructor(readonly op: string, readonly url: string, cause: string) {
    this.#cause = cause;
  }
  error(): string {
    return `${this.op} "${this.url}": ${this.#cause}`;
  }
  toString(): string {
    return this.error();
  }
}

/** An error k6's Go code throws into the script: named GoError (`String(e)` is `GoError: ...`). */
export const thrownByGo = (message: string) => Object.assign(new Error(message), { name: "GoError" });

export function k6ErrorOf(kind: string, message: string): K6Error {
  const m = message.toLowerCase();
  switch (kind) {
    case "timeout":
      return { code: 1050, text: "request timeout" };
    case "connect":
      if (m.includes("refused")) return { code: 1212, text: "dial: connection refused" };
      if (m.startsWith("no connection within") || m.includes("timed out")) {
        return { code: 1211, text: "dial: i/o timeout" };
      }
      if (/lookup|resolve|not known|no such host|name or service/.test(m)) {
        return /not known|no such host|nxdomain|name or service/.test(m)
          ? { code: 1101, text: "lookup: no such host" }
          : { code: 1100, text: `lookup: ${message}` };
      }
      return { code: 1210, text: `dial: ${message}` };
    case "reset":
    case "write": {
      const op = kind === "write" ? "write" : "read";
      if (m.includes("broken pipe")) return { code: 1201, text: `${op}: broken pipe` };
      if (m.includes("reset")) return { code: 1220, text: `${op}: connection reset by peer` };
      // A read that ended without a response, as Go's transport reports it.
      return kind === "write" ? { code: 1200, text: `write: ${message}` } : { code: 1000, text: "EOF" };
    }
    case "closed-early":
      // Go's transport: no byte of the response (EOF), or a body cut short (unexpected EOF).
      return { code: 1000, text: m.includes("before the response began") ? "EOF" : "unexpected EOF" };
    case "tls":
      // loadlab's verify failures say `tls unknown-ca:`, `tls hostname:`, `tls expired:` (tls/material.ts).
      if (
        /unknown-ca|unknown ca|not signed by a trusted|local issuer|self.signed|unknown authority/.test(m)
      ) {
        return { code: 1310, text: "x509: unknown authority" };
      }
      if (/^tls hostname|does not name the host|hostname mismatch|doesn't match/.test(m)) {
        return { code: 1311, text: "x509: certificate doesn't match hostname" };
      }
      // Go's x509 error has no code of its own in k6.
      if (/^tls expired|expired/.test(m)) {
        return { code: 1000, text: "x509: certificate has expired or is not yet valid" };
      }
      // The server's alert: k6 gives Go's `remote error` under 1010 (a net error it cannot place).
      if (/fatal alert: handshakefailure|alert handshake failure/.test(m)) {
        return { code: 1010, text: "remote error: tls: handshake failure" };
      }
      return { code: 1300, text: message === "" ? "tls: handshake failure" : message };
    case "goaway":
      return h2Error(1610, "received GoAway", h2CodeIn(message, "NO_ERROR"));
    case "h2-refused-stream":
      return h2Error(1630, "stream error", "REFUSED_STREAM");
    case "h2-protocol":
      // A stream reset names its code; any other break of the protocol ends the connection.
      return message.startsWith("RST_STREAM") || /^[A-Z_0-9]+: /.test(message)
        ? h2Error(1630, "stream error", h2CodeIn(message, "PROTOCOL_ERROR"))
        : h2Error(1650, "connection error", h2CodeIn(message, "PROTOCOL_ERROR"));
    case "blocked":
      return message.startsWith("IP")
        ? { code: 1110, text: "ip is blacklisted" }
        : { code: 1111, text: "hostname is blocked" };
    case "url":
      return { code: message.startsWith("invalid URL") ? 1020 : 1000, text: message };
    default:
      return { code: 1000, text: message === "" ? kind : message };
  }
}

export const UNKNOWN_FAILURE: Readonly<K6Error> = Object.freeze({ code: 1000, text: "request failed" });
