/**
 * @module
 * A session script that changes a JavaScript built-in while the load runs (`Array.prototype.push`,
 * `Object.prototype.then`) breaks loadlab's engine in its isolate; the worker puts it back on its next tick
 * and counts one `script` error in these words (runner/script/load.ts), and the run's verdict names
 * the change from them whatever its share of the sends (run_verdict.ts): the numbers of the moments before
 * the put-back may be the broken engine's. Pure.
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
