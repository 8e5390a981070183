/**
 * @module
 * The console's guards: a failed print ends no command (said once); printed text passes `shown` (redaction).
 */
import { osErrorText } from "./output_file.ts";

type Method = "log" | "info" | "debug" | "dir" | "table" | "error" | "warn";
let guarded = false;
/** Prints `line` on stderr past the guard: loadlab's own text (never a server's), the dashboard's token. */
export const printOwnLine: (line: string) => void = console.error.bind(console);

function wrap(methods: readonly Method[], make: (print: (...args: unknown[]) => void) => typeof console.log) {
  for (const method of methods) {
    console[method] = make(console[method].bind(console) as (...args: unknown[]) => void);
  }
}

/** Makes a failed print harmless; the answer says whether stdout failed (the command then exits 5). */
export function guardPrinting(): () => boolean {
  let stdoutFailed = false;
  wrap(["error", "warn"], (print) => (...args) => {
    try {
      print(...args);
    } catch {
      // Nowhere left to report it.
    }
  });
  wrap(["log", "info", "debug", "dir", "table"], (print) => (...args) => {
    if (stdoutFailed) return;
    try {
      print(...args);
    } catch (err) {
      stdoutFailed = true;
      console.error(`loadlab: cannot write to stdout (${osErrorText(err)}); nothing more is printed there`);
    }
  });
  return () => stdoutFailed;
}

/** Passes every string and object printed through `shown`; a second call does nothing. */
export function guardConsole(shown: (text: string) => string): void {
  if (guarded) return;
  guarded = true;
  wrap(["log", "info", "warn", "error", "debug"], (print) => (...args) =>
    print(
      ...args.map((arg) =>
        typeof arg === "string"
          ? shown(arg)
          : arg !== null && (typeof arg === "object" || typeof arg === "function")
          ? shown(Deno.inspect(arg))
          : arg
      ),
    ));
}
