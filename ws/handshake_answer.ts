/**
 * @module
 * Checks a server's handshake answer (RFC 6455 4.1) by scanning its bytes.
 */
import { acceptBytesOf } from "./accept_key.ts";
import { deflateAnswerFault } from "./deflate.ts";
import { bytesOf, decimalAt, latin1, sameBytes, sameLowerAscii } from "../http1/chars.ts";

const MAX_HANDSHAKE_BYTES = 16 * 1024;
const MORE: HandshakeResult = Object.freeze({ kind: "more" });

/** Refused (a status other than 101), a wrong accept key, or a broken answer. */
type HandshakeFault = "refused" | "bad-accept" | "handshake";

type HandshakeResult =
  | { kind: "more" }
  | { kind: "ok"; headBytes: number; protocol: string | null; deflate: boolean }
  | { kind: "failed"; fault: HandshakeFault; status: number; message: string };

const UPGRADE = bytesOf("upgrade");
const CONNECTION = bytesOf("connection");
const ACCEPT = bytesOf("sec-websocket-accept");
const EXTENSIONS = bytesOf("sec-websocket-extensions");
const PROTOCOL = bytesOf("sec-websocket-protocol");
const WEBSOCKET = bytesOf("websocket");

/**
 * Reads the answer for `key` in buf[0, end): `more` until the head is whole, then `ok` (bytes after it are
 * frames) or `failed`. The head's end is sought from `from` on; a field sent twice is joined by commas.
 */
export function readHandshake(
  buf: Uint8Array,
  end: number,
  key: string,
  protocols: readonly string[] = [],
  from = 0,
  deflate = false,
): HandshakeResult {
  const headEnd = headEndOf(buf, end, Math.max(0, from - 3));
  // Over the bound whether its end came or not: one big read must not let a longer head through.
  if (headEnd < 0 ? end > MAX_HANDSHAKE_BYTES : headEnd + 4 > MAX_HANDSHAKE_BYTES) {
    return failed("handshake", 0, `answer head over ${MAX_HANDSHAKE_BYTES} bytes`);
  }
  if (headEnd < 0) return MORE;
  let lineEnd = lineEndOf(buf, 0, headEnd);
  const code = statusOf(buf, lineEnd);
  if (code < 0) return failed("handshake", 0, "answer is not an HTTP/1.1 status line");
  if (code !== 101) return failed("refused", code, `status ${code} instead of 101`);
  let upgrade = false, connection = false, accepts = 0, accepted = false;
  let extensions: string | undefined, protocol: string | undefined;
  for (let at = lineEnd + 2; at < headEnd; at = lineEnd + 2) {
    lineEnd = lineEndOf(buf, at, headEnd);
    const colon = buf.indexOf(58, at);
    if (colon <= at || colon >= lineEnd) {
      return failed("handshake", code, "malformed header line in the answer");
    }
    const nameFrom = skipSpace(buf, at, colon), nameLength = trimEnd(buf, nameFrom, colon) - nameFrom;
    const valueFrom = skipSpace(buf, colon + 1, lineEnd), valueTo = trimEnd(buf, valueFrom, lineEnd);
    if (sameLowerAscii(buf, nameFrom, nameLength, UPGRADE)) {
      upgrade ||= hasToken(buf, valueFrom, valueTo, WEBSOCKET);
    } else if (sameLowerAscii(buf, nameFrom, nameLength, CONNECTION)) {
      connection ||= hasToken(buf, valueFrom, valueTo, UPGRADE);
    } else if (sameLowerAscii(buf, nameFrom, nameLength, ACCEPT)) {
      accepts++;
      accepted = sameBytes(buf, valueFrom, valueTo - valueFrom, acceptBytesOf(key));
    } else if (sameLowerAscii(buf, nameFrom, nameLength, EXTENSIONS)) {
      extensions = joined(extensions, buf, valueFrom, valueTo);
    } else if (sameLowerAscii(buf, nameFrom, nameLength, PROTOCOL)) {
      protocol = joined(protocol, buf, valueFrom, valueTo);
    }
  }
  if (!upgrade) return failed("handshake", code, "no Upgrade: websocket");
  if (!connection) return failed("handshake", code, "no Connection: upgrade");
  if (accepts !== 1 || !accepted) {
    return failed("bad-accept", code, "Sec-WebSocket-Accept does not match the key");
  }
  if (extensions !== undefined && !deflate) {
    return failed("handshake", code, "server answered with an extension none was offered");
  }
  const deflateFault = extensions === undefined ? null : deflateAnswerFault(extensions);
  if (deflateFault !== null) return failed("handshake", code, deflateFault);
  if (protocol !== undefined && !protocols.includes(protocol)) {
    return failed("handshake", code, "server chose a subprotocol not offered");
  }
  const deflated = extensions !== undefined;
  return { kind: "ok", headBytes: headEnd + 4, protocol: protocol ?? null, deflate: deflated };
}

function failed(fault: HandshakeFault, status: number, message: string): HandshakeResult {
  return { kind: "failed", fault, status, message };
}

/** Index of the CRLFCRLF ending the head (none starts before `from`), or -1. */
function headEndOf(buf: Uint8Array, end: number, from: number): number {
  for (let i = from; i + 3 < end; i++) {
    if (buf[i] === 13 && buf[i + 1] === 10 && buf[i + 2] === 13 && buf[i + 3] === 10) return i;
  }
  return -1;
}

function lineEndOf(buf: Uint8Array, at: number, end: number): number {
  for (let i = at; i + 1 < end; i++) if (buf[i] === 13 && buf[i + 1] === 10) return i;
  return end;
}

/** The status of an `HTTP/1.0` or `HTTP/1.1` line (three digits, then a space or the end); -1 if not. */
function statusOf(buf: Uint8Array, end: number): number {
  const prefix = "HTTP/1.";
  if (end < 12) return -1;
  for (let i = 0; i < prefix.length; i++) if (buf[i] !== prefix.charCodeAt(i)) return -1;
  if ((buf[7] !== 48 && buf[7] !== 49) || buf[8] !== 32) return -1;
  const code = decimalAt(buf, 9, 12);
  return code >= 0 && (end === 12 || buf[12] === 32) ? code : -1;
}

/** What `String.prototype.trim` removes of Latin-1 text. */
function isSpace(b: number): boolean {
  return (b >= 9 && b <= 13) || b === 32 || b === 0xa0;
}

function skipSpace(buf: Uint8Array, at: number, end: number): number {
  while (at < end && isSpace(buf[at])) at++;
  return at;
}

function trimEnd(buf: Uint8Array, from: number, end: number): number {
  while (end > from && isSpace(buf[end - 1])) end--;
  return end;
}

/** The comma-separated value has `token` (case-insensitive, each item trimmed). */
function hasToken(buf: Uint8Array, from: number, to: number, token: Uint8Array): boolean {
  for (let at = from; at <= to;) {
    let comma = buf.indexOf(44, at);
    if (comma < 0 || comma > to) comma = to;
    const itemFrom = skipSpace(buf, at, comma);
    if (sameLowerAscii(buf, itemFrom, trimEnd(buf, itemFrom, comma) - itemFrom, token)) return true;
    at = comma + 1;
  }
  return false;
}

function joined(earlier: string | undefined, buf: Uint8Array, from: number, to: number): string {
  const value = latin1(buf, from, to - from);
  return earlier === undefined ? value : `${earlier}, ${value}`;
}
