/**
 * @module
 * Assembles and writes `results.json`: the runs, the thresholds and where they ran (versions, OS,
 * CPU) so a report or a CI job can be read months later. Writes go to a temporary file that is then
 * renamed, so a crash mid-write never leaves a truncated results file in place of a good one.
 */
import denoJson from "../deno.json" with { type: "json" };
import type { EnvironmentInfo, ResultsFile, RunResult, ThresholdResult } from "./results.ts";

/** The program's version, from deno.json (the single place it is set). */
export const LOADLAB_VERSION: string = denoJson.version;

/** Describes this machine and runtime for the report header. */
export function environmentInfo(): EnvironmentInfo {
  return {
    loadlab: LOADLAB_VERSION,
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    typescript: Deno.version.typescript,
    os: `${Deno.build.os} ${safe(() => Deno.osRelease()) ?? ""}`.trim(),
    arch: Deno.build.arch,
    cpu: cpuModel(),
    cores: navigator.hardwareConcurrency,
    hostname: safe(() => Deno.hostname()),
  };
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

function cpuModel(): string {
  const text = safe(() => Deno.readTextFileSync("/proc/cpuinfo"));
  const line = text?.split("\n").find((l) => l.startsWith("model name"));
  return line?.split(":")[1]?.trim() ?? "unknown";
}

/** A complete results file. */
export function buildResultsFile(opts: {
  experiment: ResultsFile["experiment"];
  runs: RunResult[];
  thresholds?: ThresholdResult[];
}): ResultsFile {
  return {
    schema: "loadlab.results/v1",
    createdAt: new Date().toISOString(),
    environment: environmentInfo(),
    experiment: opts.experiment,
    runs: opts.runs,
    thresholds: opts.thresholds ?? [],
  };
}

/** Writes text atomically: temp file in the same directory, then rename over the target. */
export async function writeTextAtomic(path: string, text: string): Promise<void> {
  const slash = path.lastIndexOf("/");
  const tmp = `${path.slice(0, slash + 1)}.${path.slice(slash + 1)}.${Deno.pid}.${
    crypto.randomUUID().slice(0, 8)
  }.tmp`;
  try {
    await Deno.writeTextFile(tmp, text);
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}

/** Writes `results.json`. */
export async function writeResultsFile(path: string, results: ResultsFile): Promise<void> {
  await writeTextAtomic(path, JSON.stringify(results, null, 2) + "\n");
}
