/**
 * The accept value a key expects (accept_key.ts) is the SHA-1 of RFC 6455 in base64: the RFC's own
 * example, and node:crypto's hash for keys of every length from empty to past two blocks.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { createHash } from "node:crypto";
import { ACCEPT_CHARS, acceptBytesOf } from "./accept_key.ts";

const text = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes.subarray(0, ACCEPT_CHARS));

Deno.test("accept key: RFC 6455's example", () => {
  assertEquals(text(acceptBytesOf("dGhlIHNhbXBsZSBub25jZQ==")), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
});

Deno.test("accept key: node:crypto's SHA-1 for keys of 0 to 150 characters", () => {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";
  for (let length = 0; length <= 150; length++) {
    let key = "";
    for (let i = 0; i < length; i++) key += chars[(i * 7 + length * 13) % chars.length];
    const expected = createHash("sha1").update(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest("base64");
    assertEquals(text(acceptBytesOf(key)), expected, `key of ${length} characters`);
  }
});
