/**
 * @module
 * Why a text is not JSON, without V8's excerpt of the input: the input may hold secrets.
 */

export function jsonErrorReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/,\s*(?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, "");
}
