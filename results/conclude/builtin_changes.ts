/**
 * @module
 * A session script that changes a JavaScript built-in breaks loadlab's engine until the worker puts it
 * back and counts a `script` error in these words; the verdict names the change whatever its share. Pure.
 */

const CHANGED = ": a session changed ";
const RELIED_ON =
  ", which loadlab's engine in its isolate relies on: put back; keep the script's helpers on " +
  "objects of its own";

/** The `script` error message of a change to built-in `name` by the sessions of script file `script`. */
export function builtInChangeMessage(script: string, name: string): string {
  return `${script}${CHANGED}${name}${RELIED_ON}`;
}

/** The built-ins a run's sessions changed, from its `script` error messages. */
export function changedBuiltIns(messages: Readonly<Record<string, number>> | undefined): string[] {
  const names: string[] = [];
  for (const message of Object.keys(messages ?? {})) {
    const at = message.indexOf(CHANGED);
    if (at < 0 || !message.endsWith(RELIED_ON)) continue;
    names.push(message.slice(at + CHANGED.length, message.length - RELIED_ON.length));
  }
  return names;
}
