/**
 * @module
 * The reason of an operating-system error in words a user can act on. Deno's messages end with the
 * call and the paths it was given (`Not a directory (os error 20): writefile '/x/.results.json.1.tmp'`);
 * those paths are often a temporary or probe file the user never named, so they are cut and the caller
 * names the file the user gave.
 */

/** `Not a directory (os error 20)`: the message of `err` without Deno's trailing call and paths. */
export function osErrorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/: [a-z]+ '.*$/s, "");
}
