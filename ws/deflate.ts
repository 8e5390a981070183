/**
 * @module
 * permessage-deflate (RFC 7692), client side, no context takeover: one `node:zlib` call a message, capped.
 */
import { constants, deflateRawSync, inflateRawSync } from "node:zlib";

export const DEFLATE_OFFER = "permessage-deflate; client_no_context_takeover; server_no_context_takeover";

/** RFC 7692 7.2.1-7.2.2: the empty stored block a sync flush ends with, removed on send, put back on read. */
const TAIL = Uint8Array.of(0x00, 0x00, 0xff, 0xff);
const SYNC = { finishFlush: constants.Z_SYNC_FLUSH };

/**
 * Why the server's `Sec-WebSocket-Extensions` answer is refused, or null: permessage-deflate once with
 * `server_no_context_takeover` (RFC 7692 7.1.1.1), maybe `client_no_context_takeover`, window bits 8-15.
 */
export function deflateAnswerFault(value: string): string | null {
  const extensions = value.split(",").map((e) => e.trim());
  if (extensions.length !== 1) return "server answered with more than one extension";
  const [name, ...params] = extensions[0].split(";").map((p) => p.trim());
  if (name.toLowerCase() !== "permessage-deflate") {
    return `server answered with extension "${name}", not offered`;
  }
  const seen = new Set<string>();
  for (const param of params) {
    const eq = param.indexOf("=");
    const key = (eq < 0 ? param : param.slice(0, eq)).trim().toLowerCase();
    const raw = eq < 0 ? null : param.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1");
    if (seen.has(key)) return `permessage-deflate answer repeats ${key}`;
    seen.add(key);
    if (key === "server_no_context_takeover" || key === "client_no_context_takeover") {
      if (raw !== null) return `permessage-deflate answer gives ${key} a value`;
    } else if (key === "server_max_window_bits") {
      if (raw === null || !/^(8|9|1[0-5])$/.test(raw)) {
        return "permessage-deflate answer's server_max_window_bits is not 8 to 15";
      }
    } else if (key === "client_max_window_bits") {
      return "permessage-deflate answer has client_max_window_bits, which was not offered";
    } else {
      return `permessage-deflate answer has unknown parameter "${key}"`;
    }
  }
  if (!seen.has("server_no_context_takeover")) {
    return "permessage-deflate answer lacks server_no_context_takeover, which was offered";
  }
  return null;
}

/** A payload compressed (RFC 7692 7.2.1): a sync-flushed deflate stream without its tail. */
export function deflateMessage(payload: Uint8Array): Uint8Array {
  const out = deflateRawSync(payload, SYNC);
  return out.subarray(0, out.length - TAIL.length);
}

/** buf[start, end) inflated (tail put back), or `too-big` past `maxBytes`, or `protocol`. */
export function inflateMessage(
  buf: Uint8Array,
  start: number,
  end: number,
  maxBytes: number,
): Uint8Array | "too-big" | "protocol" {
  const input = new Uint8Array(end - start + TAIL.length);
  input.set(buf.subarray(start, end));
  input.set(TAIL, end - start);
  try {
    return inflateRawSync(input, { ...SYNC, maxOutputLength: maxBytes });
  } catch (err) {
    return (err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" ? "too-big" : "protocol";
  }
}
