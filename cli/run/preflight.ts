/**
 * @module
 * What `loadlab run` checks about its outputs before any target starts (exit 5).
 */
import type { Plan } from "../../scenarios/plan/types.ts";
import { assertFilesWritable, osErrorText, OutputError } from "../../system/output_file.ts";
import { formatPath } from "../../validation/mod.ts";
import { FolderInUseError, type FolderLock, holderText, lockFolder } from "../../system/folder_lock.ts";

/** Checks, before any load, that `files` and every external target's `logFile` can be created. */
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
  await assertFilesWritable([...files, ...logs]);
}

/** Locks the output folder, or only its file `of`; `OutputError` (exit 5) names the holder. */
export async function lockOutDir(command: string, outDir: string, of?: string): Promise<FolderLock> {
  try {
    const lock = await lockFolder(outDir, `loadlab ${command}`, of);
    if (lock.tookOverFrom) {
      const holder = holderText(lock.tookOverFrom).replace(/^another /, "");
      console.error(
        `loadlab ${command}: note: ${
          of ?? outDir
        }: took over the lock of pid ${lock.tookOverFrom.pid}, which is ` +
          `no longer running (${holder}; its results may be partial)`,
      );
    }
    return lock;
  } catch (err) {
    if (err instanceof FolderInUseError) {
      throw new OutputError(
        `${err.message}; wait for it to end, or give ${
          of === undefined ? "--out-dir another folder" : "another path"
        }`,
        { cause: err },
      );
    }
    // A file system without locks (some network mounts): the run goes on, unguarded, and says so.
    console.error(
      `loadlab ${command}: note: ${of ?? outDir}: cannot be locked (${osErrorText(err)}); ` +
        "another run into this folder at the same time would not be refused",
    );
    return { tookOverFrom: null, [Symbol.asyncDispose]: () => Promise.resolve() };
  }
}
