/**
 * @module
 * A value a script hands loadlab to be text (a check's name, k6's `fail()` message) made text as
 * `String` makes it. A value whose own `toString` throws (or a Proxy whose traps do) would otherwise
 * throw its own value out of loadlab's call: a bare `7` with no stack, counted as the session's error
 * `7` with no line. It is refused instead with a `TypeError` thrown here, whose stack names the script's
 * line that made the call, as every other script error does.
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
