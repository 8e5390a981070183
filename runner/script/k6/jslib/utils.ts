/**
 * @module
 * k6's utility library (jslib's k6-utils), served locally: the random helpers scripts use for test data and
 * `findBetween`. The stage helpers are not here: importing one fails before the load.
 */

/** A whole number from `min` to `max`, both included. */
export function randomIntBetween(min: number, max: number): number {
  return Math.floor(Math.random() * (max - min + 1) + min);
}

export function randomItem<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}

/** `length` characters drawn from `charset` (default: lower-case letters and digits). */
export function randomString(length: number, charset = "abcdefghijklmnopqrstuvwxyz0123456789"): string {
  let out = "";
  for (let k = 0; k < length; k++) out += charset[Math.floor(Math.random() * charset.length)];
  return out;
}

export const uuidv4 = (_secure?: boolean): string => crypto.randomUUID();

/** The text between `left` and `right` in `content` (the first, or every one with `repeat`). */
export function findBetween(content: string, left: string, right: string, repeat = false): string | string[] {
  const found: string[] = [];
  let from = 0;
  for (;;) {
    const start = content.indexOf(left, from);
    if (start < 0) break;
    const end = content.indexOf(right, start + left.length);
    if (end < 0) break;
    found.push(content.slice(start + left.length, end));
    if (!repeat) return found[0];
    from = end + right.length;
  }
  return repeat ? found : "";
}

export default { randomIntBetween, randomItem, randomString, uuidv4, findBetween };
