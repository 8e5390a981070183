/**
 * @module
 * A script may not move loadlab's working directory: Deno keeps one per process, and loadlab's relative
 * paths (`--out-dir out`) would then name other places. `Deno.chdir` and `process.chdir` refuse instead.
 */
import process from "node:process";

/** Replaces `Deno.chdir` and `process.chdir` in this isolate with refusals. */
export function refuseWorkingDirChanges(): void {
  Deno.chdir = refusal("Deno.chdir");
  process.chdir = refusal("process.chdir");
}

function refusal(call: string): (dir: string | URL) => never {
  return () => {
    throw new Error(
      `${call}() would move the working directory of loadlab's whole process, which writes the run's ` +
        "results by relative paths; read the script's files by absolute path or " +
        "`new URL('./file', import.meta.url)` instead",
    );
  };
}
