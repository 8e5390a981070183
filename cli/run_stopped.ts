/**
 * @module
 * What `loadlab run` leaves when a stop (Ctrl-C, SIGTERM) comes before its plan runs: while a session
 * script is type-checked or its top level (a k6 script's init code) runs. results.json and report.html
 * with no run, `complete: false` and `stoppedIn` naming the phase, as a stop in any later phase leaves
 * them; with `--resume` the file already there is kept. Written synchronously, so a second signal that
 * quits at once writes them too.
 */
import type { RunArgs } from "./run_args.ts";
import type { RenderReport } from "../scenarios/run_output.ts";
import { ExperimentOutput } from "../scenarios/run_output.ts";

/** The writer of results.json and report.html of experiment `name`, stopped in `phase` (none yet). */
export function stoppedBeforeRun(
  args: RunArgs,
  name: string,
  phase: string,
  render: RenderReport,
  keepSecrets: boolean,
): ExperimentOutput {
  const output = ExperimentOutput.fresh(
    args.outDir ?? `out/${name}`,
    {
      name,
      ...(args.source.startsWith("preset:") ? { preset: args.source.slice(7) } : { file: args.source }),
    },
    render,
    keepSecrets,
  );
  output.results = { ...output.results, stoppedIn: phase };
  return output;
}

/** Writes `output` unless `--resume` keeps the file there; its path when written, else null. */
export function writeStopped(output: ExperimentOutput, resume: boolean): string | null {
  if (resume && exists(output.resultsPath)) return null;
  output.writeSync();
  return output.resultsPath;
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}
