/**
 * @module
 * Printing that never ends a command: a failed print is said once, and exit 0 becomes 5.
 */
import { EXIT } from "./exit_codes.ts";
import { osErrorText } from "../system/output_file.ts";

const STDOUT_METHODS = ["log", "info", "debug", "dir", "table"] as const;
const STDERR_METHODS = ["error", "warn"] as const;

/** Runs `command` with the console guarded; its exit code, 5 instead of 0 when stdout failed. */
export async function withGuardedConsole(command: () => Promise<number>): Promise<number> {
  let stdoutFailed = false;
  const toStderr = console.error.bind(console);
  for (const method of STDERR_METHODS) {
    const print = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
      try {
        print(...args);
      } catch {
        // Nowhere left to report it.
      }
    };
  }
  for (const method of STDOUT_METHODS) {
    const print = console[method].bind(console) as (...args: unknown[]) => void;
    console[method] = (...args: unknown[]) => {
      if (stdoutFailed) return;
      try {
        print(...args);
      } catch (err) {
        stdoutFailed = true;
        try {
          toStderr(`loadlab: cannot write to stdout (${osErrorText(err)}); nothing more is printed there`);
        } catch {
          // stderr fails too.
        }
      }
    };
  }
  const code = await command();
  return code === EXIT.ok && stdoutFailed ? EXIT.outputNotWritable : code;
}
