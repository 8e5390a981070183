/**
 * @module
 * Runs a synchronous call with `process.env` as a plain object of the variables it reads: Deno asks the OS
 * at every read, and the `yaml` package reads `LOG_TOKENS` once per token it parses.
 */
import process from "node:process";

/** The variables the `yaml` package reads while it parses: its debug switches. */
export const YAML_DEBUG_VARIABLES: readonly string[] = ["LOG_TOKENS", "LOG_STREAM"];

/** `fn()` with `process.env` holding only `names`, as they are now. */
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
