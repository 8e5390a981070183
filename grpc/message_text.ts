/**
 * @module
 * The `grpc-message` text, percent-encoded by gRPC; a malformed escape is kept as written.
 */

const utf8 = new TextEncoder();
const text = new TextDecoder();

export function encodeGrpcMessage(message: string): string {
  let out = "";
  for (const b of utf8.encode(message)) {
    out += b >= 0x20 && b <= 0x7e && b !== 0x25
      ? String.fromCharCode(b)
      : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** A `grpc-message` value, read as Latin-1 octets, as its text. */
export function decodeGrpcMessage(value: string): string {
  if (!value.includes("%")) return value;
  const bytes: number[] = [];
  for (let k = 0; k < value.length; k++) {
    const hex = value.charCodeAt(k) === 0x25 ? value.slice(k + 1, k + 3) : "";
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      k += 2;
    } else bytes.push(value.charCodeAt(k) & 0xff);
  }
  return text.decode(new Uint8Array(bytes));
}
