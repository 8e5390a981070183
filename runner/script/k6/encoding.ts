/**
 * @module
 * k6's `k6/encoding`: base64 of text or bytes in four alphabets (`std`, `rawstd` unpadded, `url`, `rawurl`).
 */
import { Buffer } from "node:buffer";

const url = (enc?: string) => enc === "url" || enc === "rawurl";
const raw = (enc?: string) => enc === "rawstd" || enc === "rawurl";

/** `input`'s bytes: text as UTF-8. */
export const bytesOf = (input: string | ArrayBuffer | Uint8Array): Buffer =>
  typeof input === "string" ? Buffer.from(input, "utf8") : Buffer.from(input as ArrayBuffer);

/** `input` (text as UTF-8, or bytes) in base64 of alphabet `encoding` (default `std`). */
export function b64encode(input: string | ArrayBuffer | Uint8Array, encoding?: string): string {
  let text = bytesOf(input).toString(url(encoding) ? "base64url" : "base64");
  if (url(encoding) && !raw(encoding)) text += "=".repeat((4 - (text.length % 4)) % 4);
  if (raw(encoding)) text = text.replace(/=+$/, "");
  return text;
}

/** base64 `input` decoded: bytes as an ArrayBuffer, or text with `format` "s". */
export function b64decode(input: string, encoding?: string, format?: string): ArrayBuffer | string {
  const bytes = Buffer.from(input, url(encoding) ? "base64url" : "base64");
  if (format === "s") return bytes.toString("utf8");
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

export default { b64encode, b64decode };
