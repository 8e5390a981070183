/**
 * @module
 * RFC 6455's fixed tables: opcodes, close codes, the caps held to every server, a streaming UTF-8 check.
 */

export const OP_CONTINUATION = 0x0;
export const OP_TEXT = 0x1;
export const OP_BINARY = 0x2;
export const OP_CLOSE = 0x8;
export const OP_PING = 0x9;
export const OP_PONG = 0xa;

/** RFC 6455 5.5: a control frame's payload is at most 125 bytes. */
export const MAX_CONTROL_PAYLOAD_BYTES = 125;

/** 1 MiB: a bigger answer almost always means a misconfigured target, and the cap bounds memory. */
export const DEFAULT_MAX_MESSAGE_BYTES = 1 << 20;

/** Close codes: normal, going away, protocol error, unsupported data, no status (never on the wire). */
export const CLOSE_NORMAL = 1000;
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_PROTOCOL_ERROR = 1002;
export const CLOSE_NO_STATUS = 1005;
/** A close without a close frame (never on the wire; what a reader records). */
export const CLOSE_ABNORMAL = 1006;
export const CLOSE_INVALID_DATA = 1007;
export const CLOSE_TOO_BIG = 1009;

/** RFC 6455 7.4: 1000-1003, 1007-1014 and 3000-4999; 1004-1006 and 1015 are reserved for readers. */
function closeCodeAllowed(code: number): boolean {
  if (code >= 3000 && code <= 4999) return true;
  return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014);
}

/** What is wrong with a close payload buf[from, to) (RFC 6455 5.5.1, 7.4.1), or null. */
export function closeFrameFault(
  buf: Uint8Array,
  from: number,
  to: number,
): ["protocol" | "bad-utf8", string] | null {
  if (to - from === 0) return null;
  if (to - from === 1) return ["protocol", "close frame of 1 byte"];
  if (!closeCodeAllowed((buf[from] << 8) | buf[from + 1])) return ["protocol", "close code no peer may send"];
  if (utf8Step(UTF8_ACCEPT, buf, from + 2, to) !== UTF8_ACCEPT) {
    return ["bad-utf8", "close reason is not UTF-8"];
  }
  return null;
}

/** At a character boundary: a message may end here. */
export const UTF8_ACCEPT = 0;
/** Not UTF-8 (sticky). */
export const UTF8_REJECT = -1;

/** Validates buf[from, to) from `state` (UTF8_ACCEPT for a new message); >0 is "inside a character". */
export function utf8Step(state: number, buf: Uint8Array, from: number, to: number): number {
  let need = state & 7;
  let lo = (state >> 3) & 0xff;
  let hi = (state >> 11) & 0xff;
  for (let i = from; i < to; i++) {
    const b = buf[i];
    if (need === 0) {
      if (b < 0x80) continue;
      lo = 0x80;
      hi = 0xbf;
      if (b >= 0xc2 && b <= 0xdf) need = 1;
      else if (b >= 0xe0 && b <= 0xef) {
        need = 2;
        if (b === 0xe0) lo = 0xa0; // no overlong 3-byte forms
        else if (b === 0xed) hi = 0x9f; // no surrogates
      } else if (b >= 0xf0 && b <= 0xf4) {
        need = 3;
        if (b === 0xf0) lo = 0x90; // no overlong 4-byte forms
        else if (b === 0xf4) hi = 0x8f; // nothing past U+10FFFF
      } else return UTF8_REJECT;
      continue;
    }
    if (b < lo || b > hi) return UTF8_REJECT;
    lo = 0x80;
    hi = 0xbf;
    need--;
  }
  return need === 0 ? UTF8_ACCEPT : need | (lo << 3) | (hi << 11);
}
