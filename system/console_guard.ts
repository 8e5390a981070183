/**
 * @module
 * Every string the console prints passes through `shown` first, so a secret a server or script echoes
 * is redacted on the terminal. Guarded once: a second call does nothing.
 */

const METHODS = ["log", "info", "warn", "error", "debug"] as const;
let guarded = false;
/** stderr's line before any guard: for the one secret loadlab hands its user, the dashboard's token. */
const errorAsGiven = console.error.bind(console);

/** Prints `line` on stderr past the guard: only text loadlab made for its user (never a server's). */
export function printOwnLine(line: string): void {
  errorAsGiven(line);
}

export function guardConsole(shown: (text: string) => string): void {
  if (guarded) return;
  guarded = true;
  for (const method of METHODS) {
    const print = console[method].bind(console);
    console[method] = (...args: unknown[]) =>
      print(
        ...args.map((arg) =>
          typeof arg === "string"
            ? shown(arg)
            : arg !== null && (typeof arg === "object" || typeof arg === "function")
            ? shown(Deno.inspect(arg))
            : arg
        ),
      );
  }
}
