/**
 * @module
 * CPU profiles of a run (`profile: cpu`, `--profile`): taken, written and summarized.
 */
import { type CpuProfiling, startCpuProfiles, type TakenProfile } from "../../targets/mod.ts";
import type { RunTarget } from "./targets.ts";
import { idleWarning, isCpuProfile, summarizeProfile } from "../../results/cpu_profile.ts";
import type { RunProfile } from "../../results/schema/profile.ts";
import { writeTextAtomic } from "../../system/atomic_write.ts";
import { fileStem } from "../../validation/file_stem.ts";

/** Starts profiling the target's inspected processes; null when the target is not profiled. */
export async function startRunProfiles(target: RunTarget): Promise<CpuProfiling | null> {
  const inspected = target.running?.inspected;
  if (!inspected?.length) return null;
  try {
    return await startCpuProfiles(inspected);
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    const taken = inspected.map((p) => ({ name: p.name, error }));
    return { startedAtEpochMs: Date.now(), stop: () => Promise.resolve(taken) };
  }
}

/** The folder (under the output directory) and file name of one process's profile of one run. */
export function profilePath(runName: string, process: string): string {
  const safe = (s: string) => fileStem(s, /^[A-Za-z0-9.=-]*$/.test(s));
  return `profiles/${safe(runName)}.${safe(process)}.cpuprofile`;
}

/** Writes each taken profile beside results.json; `loadStartUs` is where the summary's windows begin. */
export async function saveRunProfiles(
  taken: TakenProfile[],
  outDir: string,
  runName: string,
  loadStartUs: number,
): Promise<RunProfile[]> {
  await Deno.mkdir(`${outDir}/profiles`, { recursive: true });
  return await Promise.all(taken.map(async (t): Promise<RunProfile> => {
    if ("error" in t) return { process: t.name, error: t.error };
    if (!isCpuProfile(t.profile)) return { process: t.name, error: "the inspector answered no CPU profile" };
    const file = profilePath(runName, t.name);
    try {
      await writeTextAtomic(`${outDir}/${file}`, JSON.stringify(t.profile));
    } catch (err) {
      return { process: t.name, error: `cannot write ${file}: ${(err as Error).message}` };
    }
    const summary = summarizeProfile(t.profile, undefined, loadStartUs);
    const warning = idleWarning(summary, t.runtime, t.children);
    return { process: t.name, file, summary, ...(warning === null ? {} : { warning }) };
  }));
}
