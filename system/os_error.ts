/**
 * @module
 * An OS error's reason without Deno's trailing call and paths (often a temp file the user never named).
 */

export function osErrorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/: [a-z]+ '.*$/s, "");
}
