/**
 * @module
 * Base64 helpers without `jsr:@std/encoding` (JSR is not reachable from our build machines). Only used at
 * start-up and by the asset generator, so clarity wins over speed.
 */

/** Standard base64 of `bytes`. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  const chunkSize = 0x8000;
  for (let i = 0; i < bytes.length; i += chunkSize) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunkSize));
  }
  return btoa(binary);
}

/** Bytes of a standard base64 string. */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
