/**
 * @module
 * What `loadlab run` checks about its outputs before any target starts or any load is sent, as it
 * checks the output folder: the CI files (`--summary`, `--junit`) and external targets' log files can
 * be written; an unwritable one throws `OutputError` (exit 5). The checks of the plan itself (target
 * files, the open-file limit) are scenarios/plan_preflight.ts, run when the plan is loaded.
 */
import type { Plan } from "../scenarios/plan_types.ts";
import { OutputError } from "../results/output_error.ts";
import { formatPath } from "../validation/mod.ts";
import { assertFileWritable } from "../system/atomic_write.ts";
import { osErrorText } from "../system/os_error.ts";

/**
 * The other outputs can be created (before any load, as the output folder is): `files` as
 * `[flag, path]` (`--summary`, `--junit`) and the `logFile` of every external target the plan starts.
 */
export async function assertOutputsWritable(
  plan: Plan,
  files: Array<[string, string | undefined]>,
): Promise<void> {
  const logs = new Map<string, string>();
  for (const run of plan.runs) {
    const spec = run.target.kind === "spec" ? run.target.spec : undefined;
    if (spec?.kind === "external" && spec.logFile) {
      logs.set(formatPath(["targets", run.variant, "logFile"]), spec.logFile);
    }
  }
  for (const [flag, path] of [...files, ...logs]) {
    if (path === undefined) continue;
    await assertFileWritable(path).catch((err) => {
      // Deno's message ends with the call and the probe file's path, which the user never named.
      const why = osErrorText(err);
      throw new OutputError(`${flag} ${path}: cannot write: ${why}`, { cause: err });
    });
  }
}
