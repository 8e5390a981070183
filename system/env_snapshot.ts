/**
 * @module
 * Runs a synchronous call with `process.env` as a plain object holding only the variables it reads, read
 * once. Deno's `process.env` asks the OS for a variable at every read, and the `yaml` package reads one
 * (`LOG_TOKENS`, a debug switch) for every token it parses: a third of the time of reading a 2.4 MB
 * experiment file went to asking for a variable that is never set. The call sees the same values, and
 * the real `process.env` is back before anything else can run (the call cannot await).
 */
import process from "node:process";

/**
 * What the `yaml` package reads from the environment while it parses (once per token): its debug switches.
 */
export const YAML_DEBUG_VARIABLES: readonly string[] = ["LOG_TOKENS", "LOG_STREAM"];

/**
 * `fn()` with `process.env` holding `names`, as they are now, and nothing else.
 *
 * @example withEnvSnapshot(["LOG_TOKENS", "LOG_STREAM"], () => parseDocument(text))
 */
export function withEnvSnapshot<T>(names: readonly string[], fn: () => T): T {
  const real = process.env;
  const snapshot: Record<string, string> = {};
  for (const name of names) {
    const value = real[name];
    if (value !== undefined) snapshot[name] = value;
  }
  process.env = snapshot;
  try {
    return fn();
  } finally {
    process.env = real;
  }
}
