/**
 * @module
 * The client's opening handshake (RFC 6455 4.1), built once per run, a fresh key written in each copy.
 */
import { ACCEPT_CHARS, acceptBytesOf, writeBase64 } from "./accept_key.ts";
import { DEFLATE_OFFER } from "./deflate.ts";
import { latin1 } from "../http1/chars.ts";

interface HandshakeOptions {
  /** Subprotocols (`Sec-WebSocket-Protocol`), in order of preference. */
  protocols?: readonly string[];
  /** e.g. Origin or Authorization. */
  headers?: ReadonlyArray<readonly [string, string]>;
  /** Offer permessage-deflate (ws/deflate.ts). */
  deflate?: boolean;
}

/** 16 random bytes, base64. */
export function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

export function acceptOf(key: string): string {
  return latin1(acceptBytesOf(key), 0, ACCEPT_CHARS);
}

/** The Upgrade request's head lines for `target` (path and query) at `host`; `key` null: no key line. */
export function handshakeLines(target: string, host: string, key: string | null, options: HandshakeOptions) {
  const lines = [`GET ${target} HTTP/1.1`, `Host: ${host}`, "Upgrade: websocket", "Connection: Upgrade"];
  if (key !== null) lines.push(`Sec-WebSocket-Key: ${key}`);
  lines.push("Sec-WebSocket-Version: 13");
  if (options.protocols?.length) lines.push(`Sec-WebSocket-Protocol: ${options.protocols.join(", ")}`);
  if (options.deflate) lines.push(`Sec-WebSocket-Extensions: ${DEFLATE_OFFER}`);
  for (const [name, value] of options.headers ?? []) lines.push(`${name}: ${value}`);
  return lines;
}

/** The Upgrade request for `url` (ws: or wss:, or their http(s) forms; its host drops a default port). */
export function handshakeRequest(url: URL, key: string, options: HandshakeOptions = {}): Uint8Array {
  const lines = handshakeLines(url.pathname + url.search, url.host, key, options);
  return new TextEncoder().encode(lines.join("\r\n") + "\r\n\r\n");
}

/** 16 bytes in base64, the last two `==`. */
const KEY_CHARS = 24;
/** Per `crypto.getRandomValues` call. */
const KEYS_PER_DRAW = 64;

/** The run's Upgrade request built once; the request is valid until the next key (a partial write copies). */
export class HandshakeTemplate {
  readonly #bytes: Uint8Array;
  readonly #keyAt: number;
  readonly #random = new Uint8Array(16 * KEYS_PER_DRAW);
  #randomAt = this.#random.length;

  constructor(url: URL, options: HandshakeOptions = {}) {
    this.#bytes = handshakeRequest(url, "=".repeat(KEY_CHARS), options);
    // The first field after the request line: none of Host, Upgrade or Connection can hold it.
    const head = latin1(this.#bytes, 0, this.#bytes.length);
    this.#keyAt = head.indexOf("\r\nSec-WebSocket-Key: ") + "\r\nSec-WebSocket-Key: ".length;
  }

  /** The request with a fresh key, valid until the next call, and that key. */
  next(): { request: Uint8Array; key: string } {
    if (this.#randomAt === this.#random.length) {
      crypto.getRandomValues(this.#random);
      this.#randomAt = 0;
    }
    const request = this.#bytes;
    const random = this.#random;
    let from = this.#randomAt;
    let to = this.#keyAt;
    // Five groups of three bytes make 20 characters; the 16th byte makes `xx==`.
    for (let group = 0; group < 5; group++, from += 3, to += 4) {
      writeBase64(request, to, (random[from] << 16) | (random[from + 1] << 8) | random[from + 2]);
    }
    writeBase64(request, to, random[from] << 16);
    request[to + 2] = request[to + 3] = 61; // "=="
    this.#randomAt += 16;
    return { request, key: latin1(request, this.#keyAt, KEY_CHARS) };
  }
}
