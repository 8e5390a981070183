/**
 * @module
 * The opening handshake's request of RFC 6455 4.1, client side: the Upgrade request, built once per run
 * (`HandshakeTemplate`) with a fresh key written into each connection's copy, and the accept value a key
 * expects; ws/handshake_answer.ts checks the server's answer. Nothing here runs per message.
 */
import { ACCEPT_CHARS, acceptBytesOf } from "./accept_key.ts";
import { DEFLATE_OFFER } from "./deflate.ts";

const LATIN1 = new TextDecoder("latin1");

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
  return LATIN1.decode(acceptBytesOf(key).subarray(0, ACCEPT_CHARS));
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
 * A run's Upgrade request (`handshakeRequest`) built once, into which each connection's fresh key is
 * written: a crowd's handshakes then make no header lines, strings or encodings each, only the key's
 * text, and the random bytes come 64 keys to a call. The request is the template's own bytes, valid until
 * the next key: a handshake that cannot write it whole at once copies what is left.
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

  /** The request with a fresh key (16 random bytes, base64), valid until the next call, and that key. */
  next(): { request: Uint8Array; key: string } {
    if (this.#randomAt === this.#random.length) {
      crypto.getRandomValues(this.#random);
      this.#randomAt = 0;
    }
    const request = this.#bytes;
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
