/**
 * @module
 * Terminal plumbing of commands that run load: the live progress line and the Ctrl-C handling.
 */
import { renderLiveLine } from "../report/terminal/live_line.ts";
import type { AttackProgress } from "../results/mod.ts";
import { redactShown } from "../results/redact.ts";
import { EXIT } from "./exit_codes.ts";

const encoder = new TextEncoder();

/** A progress callback that redraws one line on stderr, or undefined when stderr is not a terminal. */
export function liveLine(enabled: boolean): { onProgress?: (p: AttackProgress) => void; done(): void } {
  if (!enabled || !Deno.stderr.isTerminal()) return { done() {} };
  let drawn = false;
  return {
    onProgress(p) {
      // Past the console's guard: its names redacted here.
      const line = redactShown(renderLiveLine(p, terminalColumns()));
      Deno.stderr.writeSync(encoder.encode(`\r\x1b[2K${line}`));
      drawn = true;
    },
    done() {
      if (drawn) Deno.stderr.writeSync(encoder.encode("\r\x1b[2K"));
    },
  };
}

/** The terminal's width, less one (a line as wide as the terminal wraps on some); unknown: no bound. */
function terminalColumns(): number {
  try {
    const { columns } = Deno.consoleSize();
    return columns > 0 ? columns - 1 : Infinity;
  } catch {
    return Infinity;
  }
}

/** Ctrl-C and SIGTERM as a command answers them (`interruptSignal`). */
export type Interrupt = ReturnType<typeof interruptSignal>;

/** An AbortSignal fired by the first SIGINT, SIGTERM or SIGHUP; a second exits at once after `beforeQuit`. */
export function interruptSignal(): {
  signal: AbortSignal;
  exitCode(): number;
  beforeQuit(write: () => void): void;
  dispose(): void;
} {
  const controller = new AbortController();
  let exitCode: number = EXIT.interrupted;
  let beforeQuit = () => {};
  const on = (code: number, what: string) => () => {
    if (controller.signal.aborted) {
      try {
        beforeQuit();
      } catch (err) {
        console.error(`loadlab: quitting without the results written: ${(err as Error).message}`);
      }
      Deno.exit(code);
    }
    exitCode = code;
    try {
      console.error(`\nstopping (${what}): finishing in-flight requests (Ctrl-C again to quit now)`);
    } catch { /* a hung-up terminal takes no line; the results are still written */ }
    controller.abort();
  };
  const listeners: [Deno.Signal, () => void][] = [
    ["SIGINT", on(EXIT.interrupted, "Ctrl-C")],
    ["SIGTERM", on(EXIT.terminated, "SIGTERM")],
    // A closed terminal or dropped ssh session: stop as SIGTERM does, keeping the results, never lose them.
    ["SIGHUP", on(EXIT.terminated, "SIGHUP")],
  ];
  for (const [signal, listener] of listeners) {
    try {
      Deno.addSignalListener(signal, listener);
    } catch { /* signals unsupported (e.g. SIGTERM on Windows): that signal then just exits */ }
  }
  return {
    signal: controller.signal,
    exitCode: () => exitCode,
    beforeQuit: (write) => beforeQuit = write,
    dispose() {
      for (const [signal, listener] of listeners) {
        try {
          Deno.removeSignalListener(signal, listener);
        } catch { /* never added */ }
      }
    },
  };
}
