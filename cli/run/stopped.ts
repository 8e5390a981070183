/**
 * @module
 * What `loadlab run` leaves when a stop comes while it reads its experiment.
 */
import type { RunArgs } from "./args.ts";
import type { Interrupt } from "../live.ts";
import { readRunPlan, type RunSource } from "./source.ts";
import { ScriptCheckStopped, scriptExperimentName } from "./script_check.ts";
import type { Plan } from "../../scenarios/plan/types.ts";
import { ExperimentOutput, type RenderReport } from "../../scenarios/run/output.ts";
import type { ResultsFile } from "../../results/mod.ts";
import { renderReport } from "../../report/html/mod.ts";

/** The experiment `args` name; when a stop ends its script's check, the exit code once files are written. */
export async function readRunPlanOrStop(
  command: string,
  args: RunArgs,
  interrupt: Interrupt,
): Promise<{ source: RunSource; plan: Plan } | number> {
  const render = (results: ResultsFile) => renderReport(results, { keepSecrets: args.keepSecrets });
  const before = (phase: string, name = scriptExperimentName(args.source)) =>
    stoppedBeforeRun(args, name, phase, render, args.keepSecrets);
  // A second signal before the plan's own writer opens leaves the file of a run stopped before any load.
  interrupt.beforeQuit(() => writeStopped(before("reading the experiment, before any run"), args.resume));
  const read = await readRunPlan(args, interrupt.signal).catch((err) => {
    if (err instanceof ScriptCheckStopped) return err;
    throw err;
  });
  if (!(read instanceof ScriptCheckStopped)) return read;
  const path = writeStopped(before(read.phase, read.experiment), args.resume);
  console.error(`loadlab ${command}: ${read.message}${path === null ? "" : `; results: ${path}`}`);
  return interrupt.exitCode();
}

/** The writer of results.json and report.html of experiment `name`, stopped in `phase` (none yet). */
function stoppedBeforeRun(
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
function writeStopped(output: ExperimentOutput, resume: boolean): string | null {
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
