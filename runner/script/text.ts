/**
 * @module
 * A value a script hands loadlab to be text, made text as `String` makes it. A value whose `toString` throws
 * is refused with a `TypeError` thrown here, so its stack names the script's line.
 */

/** `value` as text; a value that cannot be made text throws a `TypeError` saying `what` and the fix. */
export function scriptText(value: unknown, what: string, fix: string): string {
  if (typeof value === "string") return value;
  try {
    return String(value);
  } catch {
    throw new TypeError(`${what} cannot be shown as text (its toString throws): ${fix}`);
  }
}
