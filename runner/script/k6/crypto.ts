/**
 * @module
 * k6's `k6/crypto` on `node:crypto`: digests (`sha256(x, "hex")`), `hmac`, `createHash`, `randomBytes`.
 */
import * as nodeCrypto from "node:crypto";
import type { Buffer } from "node:buffer";
import { b64encode, bytesOf } from "./encoding.ts";

type Input = string | ArrayBuffer | Uint8Array;
type Digest = string | ArrayBuffer;

/** A digest in k6's output encodings: hex, base64, base64url, base64rawurl, binary (an ArrayBuffer). */
function encode(digest: Buffer, encoding = "binary"): Digest {
  if (encoding === "hex") return digest.toString("hex");
  // k6/encoding's alphabets: base64url padded as its `url`, base64rawurl unpadded as its `rawurl`.
  if (encoding === "base64" || encoding === "base64url" || encoding === "base64rawurl") {
    return b64encode(digest, encoding === "base64" ? "std" : encoding === "base64url" ? "url" : "rawurl");
  }
  return digest.buffer.slice(digest.byteOffset, digest.byteOffset + digest.byteLength) as ArrayBuffer;
}

/** k6's hash names: node:crypto's with `_` for `-` (sha512_224). */
const HASHES = ["md4", "md5", "sha1", "sha256", "sha384", "sha512", "sha512_224", "sha512_256", "ripemd160"];

const algorithm = (name: string) => {
  if (!HASHES.includes(name)) throw new TypeError(`${name}: not a hash k6/crypto knows`);
  return name.replace("_", "-");
};

export const createHash = (name: string) => hasher(nodeCrypto.createHash(algorithm(name)));

export function createHMAC(name: string, secret: Input) {
  return hasher(nodeCrypto.createHmac(algorithm(name), bytesOf(secret)));
}

/** k6's hasher: `update` returns nothing (k6's does not chain); `digest` may run in several encodings. */
function hasher(h: { update(b: Buffer): unknown; digest(): Buffer }) {
  let done: Buffer | null = null;
  return {
    update: (input: Input): void => void h.update(bytesOf(input)),
    digest: (encoding?: string) => encode(done ??= h.digest(), encoding),
  };
}

export function hmac(name: string, secret: Input, data: Input, encoding?: string): Digest {
  const mac = nodeCrypto.createHmac(algorithm(name), bytesOf(secret));
  return encode(mac.update(bytesOf(data)).digest(), encoding);
}

const digestOf = (name: string) => (input: Input, encoding?: string) =>
  encode(nodeCrypto.createHash(algorithm(name)).update(bytesOf(input)).digest(), encoding);

const DIGESTS = Object.fromEntries(HASHES.map((name) => [name, digestOf(name)]));
export const { md4, md5, sha1, sha256, sha384, sha512, sha512_224, sha512_256, ripemd160 } = DIGESTS;

export function randomBytes(size: number): ArrayBuffer {
  return encode(nodeCrypto.randomBytes(size)) as ArrayBuffer;
}

export default { createHash, createHMAC, hmac, randomBytes, ...DIGESTS };
