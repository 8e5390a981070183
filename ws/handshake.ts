/**
 * @module
 * The opening handshake of RFC 6455 4.1-4.2, client side: the Upgrade request (built once per
 * connection: its key is fresh each time) and the check of the server's answer: `101`, `Upgrade:
 * websocket`, `Connection: upgrade`, `Sec-WebSocket-Accept` = base64(SHA-1(key + GUID)), a subprotocol
 * only among those offered, and an extension only when permessage-deflate was offered (ws/deflate.ts
 * checks the answer to it); without the offer any extension breaks the protocol and is refused. The
 * answer's head is small and read once per connection, so it is decoded as text; nothing here runs per
 * message.
 */
import { createHash } from "node:crypto";
import { DEFLATE_OFFER, deflateAnswerFault } from "./deflate.ts";

/** RFC 6455's fixed GUID appended to the key before hashing. */
export const WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
/** The answer's head is decoded as Latin-1 (one character a byte), by one decoder. */
const LATIN1 = new TextDecoder("latin1");
/** A handshake answer's head bigger than this is refused (`handshake`). */
export const MAX_HANDSHAKE_BYTES = 16 * 1024;

/** What the request may carry beyond the required fields. */
export interface HandshakeOptions {
  /** Offered subprotocols (`Sec-WebSocket-Protocol`), in order of preference. */
  protocols?: readonly string[];
  /** More header fields, e.g. Origin or Authorization. */
  headers?: ReadonlyArray<readonly [string, string]>;
  /** Offer permessage-deflate (`Sec-WebSocket-Extensions`, ws/deflate.ts). */
  deflate?: boolean;
}

/** A fresh `Sec-WebSocket-Key`: 16 random bytes, base64. */
export function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** The `Sec-WebSocket-Accept` a server must answer `key` with. */
export function acceptOf(key: string): string {
  return createHash("sha1").update(key + WS_GUID).digest("base64");
}

/** The Upgrade request for `url` (ws: or wss:, or their http(s) forms) with `key`. */
export function handshakeRequest(url: URL, key: string, options: HandshakeOptions = {}): Uint8Array {
  const secure = url.protocol === "wss:" || url.protocol === "https:";
  const defaultPort = secure ? "443" : "80";
  const host = url.port === "" || url.port === defaultPort ? url.hostname : `${url.hostname}:${url.port}`;
  const lines = [
    `GET ${url.pathname}${url.search} HTTP/1.1`,
    `Host: ${host}`,
    "Upgrade: websocket",
    "Connection: Upgrade",
    `Sec-WebSocket-Key: ${key}`,
    "Sec-WebSocket-Version: 13",
  ];
  if (options.protocols?.length) lines.push(`Sec-WebSocket-Protocol: ${options.protocols.join(", ")}`);
  if (options.deflate) lines.push(`Sec-WebSocket-Extensions: ${DEFLATE_OFFER}`);
  for (const [name, value] of options.headers ?? []) lines.push(`${name}: ${value}`);
  return new TextEncoder().encode(lines.join("\r\n") + "\r\n\r\n");
}

const BASE64 = new TextEncoder().encode("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
/** Characters of a key: 16 bytes in base64, the last two `==`. */
const KEY_CHARS = 24;
/** Keys' random bytes drawn per `crypto.getRandomValues` call. */
const KEYS_PER_DRAW = 64;

/**
 * A run's Upgrade request (`handshakeRequest`) built once, of which each connection takes a copy with a
 * fresh key written in: a crowd's handshakes then make no header lines, strings or encodings each, only
 * the request's bytes and the key's text, and the random bytes come 64 keys to a call.
 */
export class HandshakeTemplate {
  readonly #bytes: Uint8Array;
  /** Where the key's 24 characters start in the request. */
  readonly #keyAt: number;
  readonly #random = new Uint8Array(16 * KEYS_PER_DRAW);
  #randomAt = this.#random.length;

  constructor(url: URL, options: HandshakeOptions = {}) {
    this.#bytes = handshakeRequest(url, "=".repeat(KEY_CHARS), options);
    // The first field after the request line, Host, Upgrade and Connection, none of which can hold it.
    const head = LATIN1.decode(this.#bytes);
    this.#keyAt = head.indexOf("\r\nSec-WebSocket-Key: ") + "\r\nSec-WebSocket-Key: ".length;
  }

  /** A copy of the request with a fresh key (16 random bytes, base64), and that key. */
  next(): { request: Uint8Array; key: string } {
    if (this.#randomAt === this.#random.length) {
      crypto.getRandomValues(this.#random);
      this.#randomAt = 0;
    }
    const request = this.#bytes.slice();
    const random = this.#random;
    let from = this.#randomAt;
    let to = this.#keyAt;
    // Five groups of three bytes make 20 characters; the 16th byte makes the last four (`xx==`).
    for (let group = 0; group < 5; group++, from += 3, to += 4) {
      const word = (random[from] << 16) | (random[from + 1] << 8) | random[from + 2];
      request[to] = BASE64[word >>> 18];
      request[to + 1] = BASE64[(word >>> 12) & 63];
      request[to + 2] = BASE64[(word >>> 6) & 63];
      request[to + 3] = BASE64[word & 63];
    }
    request[to] = BASE64[random[from] >>> 2];
    request[to + 1] = BASE64[(random[from] & 3) << 4];
    this.#randomAt += 16;
    const keyBytes = request.subarray(this.#keyAt, this.#keyAt + KEY_CHARS);
    const key = String.fromCharCode.apply(null, keyBytes as unknown as number[]);
    return { request, key };
  }
}

/** Why a handshake failed: refused (a status other than 101), a wrong accept key, or a broken answer. */
export type HandshakeFault = "refused" | "bad-accept" | "handshake";

/** The outcome of reading a handshake answer. */
export type HandshakeResult =
  | { kind: "more" }
  | { kind: "ok"; headBytes: number; protocol: string | null; deflate: boolean }
  | { kind: "failed"; fault: HandshakeFault; status: number; message: string };

/**
 * Reads the answer to a handshake with `key` from buf[0, end): `more` until its head is whole, then
 * `ok` (with the head's length: bytes after it are already frames) or `failed` with the reason. `from`:
 * the bytes before it were read already and held no head's end, so the search for it starts there (an
 * answer trickled a byte at a time is scanned once, not once per byte). `deflate`: permessage-deflate
 * was offered, so the answer may agree to it (`ok`'s `deflate`).
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
  if (headEnd < 0) return { kind: "more" };
  const lines = LATIN1.decode(buf.subarray(0, headEnd)).split("\r\n");
  const status = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(lines[0]);
  if (status === null) return failed("handshake", 0, "answer is not an HTTP/1.1 status line");
  const code = Number(status[1]);
  if (code !== 101) return failed("refused", code, `status ${code} instead of 101`);
  const fields = new Map<string, string>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    const colon = line.indexOf(":");
    if (colon <= 0) return failed("handshake", code, "malformed header line in the answer");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    fields.set(name, fields.has(name) ? `${fields.get(name)}, ${value}` : value);
  }
  if (!hasToken(fields.get("upgrade"), "websocket")) {
    return failed("handshake", code, "no Upgrade: websocket");
  }
  if (!hasToken(fields.get("connection"), "upgrade")) {
    return failed("handshake", code, "no Connection: upgrade");
  }
  if (fields.get("sec-websocket-accept") !== acceptOf(key)) {
    return failed("bad-accept", code, "Sec-WebSocket-Accept does not match the key");
  }
  const extensions = fields.get("sec-websocket-extensions");
  if (extensions !== undefined && !deflate) {
    return failed("handshake", code, "server answered with an extension none was offered");
  }
  const deflateFault = extensions === undefined ? null : deflateAnswerFault(extensions);
  if (deflateFault !== null) return failed("handshake", code, deflateFault);
  const protocol = fields.get("sec-websocket-protocol") ?? null;
  if (protocol !== null && !protocols.includes(protocol)) {
    return failed("handshake", code, "server chose a subprotocol not offered");
  }
  return { kind: "ok", headBytes: headEnd + 4, protocol, deflate: extensions !== undefined };
}

function failed(fault: HandshakeFault, status: number, message: string): HandshakeResult {
  return { kind: "failed", fault, status, message };
}

/** Index of the CRLFCRLF ending the head in buf[0, end) (none starts before `from`), or -1. */
function headEndOf(buf: Uint8Array, end: number, from: number): number {
  for (let i = from; i + 3 < end; i++) {
    if (buf[i] === 13 && buf[i + 1] === 10 && buf[i + 2] === 13 && buf[i + 3] === 10) return i;
  }
  return -1;
}

/** Whether a comma-separated field value has `token` (case-insensitive). */
function hasToken(value: string | undefined, token: string): boolean {
  return value !== undefined && value.split(",").some((t) => t.trim().toLowerCase() === token);
}
