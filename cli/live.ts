/**
 * @module
 * Terminal plumbing shared by commands that run load: the live progress line (only on a terminal,
 * redrawn in place on stderr so stdout stays clean for `--json` and pipes), and Ctrl-C handling where
 * the first Ctrl-C stops the load gracefully and keeps the results, and a second one exits at once.
 */
import { renderLiveLine } from "../report/text.ts";
import type { AttackProgress } from "../runner/attack.ts";

const encoder = new TextEncoder();

/** A progress callback that redraws one line on stderr, or undefined when stderr is not a terminal. */
export function liveLine(enabled: boolean): { onProgress?: (p: AttackProgress) => void; done(): void } {
  if (!enabled || !Deno.stderr.isTerminal()) return { done() {} };
  let drawn = false;
  return {
    onProgress(p) {
      Deno.stderr.writeSync(encoder.encode(`\r\x1b[2K${renderLiveLine(p)}`));
      drawn = true;
    },
    done() {
      if (drawn) Deno.stderr.writeSync(encoder.encode("\r\x1b[2K"));
    },
  };
}

/** An AbortSignal fired by the first Ctrl-C; the second Ctrl-C exits with 130. */
export function interruptSignal(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) Deno.exit(130);
    console.error("\nstopping: finishing in-flight requests (Ctrl-C again to quit now)");
    controller.abort();
  };
  try {
    Deno.addSignalListener("SIGINT", onSigint);
  } catch { /* signals unsupported (e.g. some Windows consoles): Ctrl-C then just exits */ }
  return {
    signal: controller.signal,
    dispose() {
      try {
        Deno.removeSignalListener("SIGINT", onSigint);
      } catch { /* never added */ }
    },
  };
}
