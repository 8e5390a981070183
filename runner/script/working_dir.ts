/**
 * @module
 * A script may not move loadlab's working directory. Deno keeps one per process, shared by every isolate,
 * so a script's `Deno.chdir` or `process.chdir` (at its top level, in a session, in setup()) moved it under
 * the running loadlab, whose relative paths (`--out-dir out`, the default `out/<name>`) then named other
 * places: results.json was written under `/` or could not be written at the end, and the run was lost.
 * Node refuses `process.chdir` in worker threads for the same reason; every isolate that imports a script
 * replaces both functions with one that throws, naming the call and the fix, before the import.
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
