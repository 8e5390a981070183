/**
 * @module
 * JSON text with no invisible control character written literally: C1 controls, bidi overrides and
 * isolates (U+202A-U+202E, U+2066-U+2069) and the line and paragraph separators become `\uXXXX` escapes,
 * which parse back to the same strings. `JSON.stringify` escapes only C0 controls, so a name or an
 * experiment's text holding U+202E would otherwise reverse what an editor, a diff or a page shows.
 */

const INVISIBLE = /[\u0080-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `json` (JSON.stringify's text) with invisible characters escaped. */
export function escapeInvisible(json: string): string {
  return json.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
