/**
 * @module
 * A streaming UTF-8 validator over bytes: RFC 6455 requires a whole text message to be valid UTF-8 and
 * a fragment may end inside a character, so a small state carries across calls.
 */

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
