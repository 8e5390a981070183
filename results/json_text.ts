/**
 * @module
 * JSON text with invisible controls (C1, bidi overrides, line separators) escaped as `\uXXXX`, so an
 * editor, a diff or a page shows what the file holds.
 */

const INVISIBLE = /[\u0080-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `json` (JSON.stringify's text) with invisible characters escaped. */
export function escapeInvisible(json: string): string {
  return json.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
