/**
 * @module
 * Reads and writes `results.json`; the only part of `results/` that touches `Deno.*`. A results file
 * records the runs, the thresholds and where they ran (versions; OS, CPU and git commit as
 * system/host_info.ts reads them) so a report or a CI
 * job can be read months later. Writes go to a temporary file in the same directory that is then renamed,
 * so a crash mid-write never leaves a truncated file in place of a good one (experiments rewrite the file
 * after every run).
 */
import denoJson from "../deno.json" with { type: "json" };
import { parseResultsFile } from "./parse.ts";
import { redactResults } from "./redact_results.ts";
import { escapeInvisible } from "./json_text.ts";
import { jsonErrorReason } from "../validation/json_error.ts";
import { FileReadError, readTextFileCapped } from "../system/read_capped.ts";
import { writeTextAtomic } from "../system/atomic_write.ts";
import { currentGitCommit, hostInfo } from "../system/host_info.ts";
import {
  type EnvironmentInfo,
  RESULTS_SCHEMA,
  type ResultsFile,
  type RunResult,
  type ThresholdResult,
} from "./schema/results.ts";

/** The program's version, from deno.json (the single place it is set). */
export const LOADLAB_VERSION: string = denoJson.version;

/** Describes this machine and runtime for the report header (the machine's facts: system/host_info.ts). */
export function environmentInfo(): EnvironmentInfo {
  const gitCommit = currentGitCommit();
  const { os, arch, cpu, cores, hostname } = hostInfo();
  return {
    loadlab: LOADLAB_VERSION,
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    typescript: Deno.version.typescript,
    os,
    arch,
    cpu,
    cores,
    hostname,
    ...(gitCommit ? { gitCommit } : {}),
  };
}

/** A complete results file. */
export function buildResultsFile(opts: {
  experiment: ResultsFile["experiment"];
  runs: RunResult[];
  thresholds?: ThresholdResult[];
}): ResultsFile {
  return {
    schema: RESULTS_SCHEMA,
    createdAt: new Date().toISOString(),
    environment: environmentInfo(),
    experiment: opts.experiment,
    runs: opts.runs,
    thresholds: opts.thresholds ?? [],
  };
}

/**
 * Writes `results.json` atomically, secrets redacted (results/redact.ts) unless `keepSecrets`
 * (`--no-redact`).
 */
export async function writeResultsFile(
  path: string,
  results: ResultsFile,
  opts: { keepSecrets?: boolean } = {},
): Promise<void> {
  await writeTextAtomic(path, resultsText(results, opts));
}

/** The text of `results.json`: secrets redacted unless `keepSecrets`, invisible characters escaped. */
export function resultsText(results: ResultsFile, opts: { keepSecrets?: boolean } = {}): string {
  const shown = opts.keepSecrets ? results : redactResults(results);
  return escapeInvisible(JSON.stringify(shown, null, 2)) + "\n";
}

/** A results file that could not be used; the message is one line naming the file. */
export class ResultsFileError extends Error {
  override name = "ResultsFileError";
}

/**
 * The largest results file read (report, merge, site, --resume): an hour-long run writes about 10-14 MB,
 * so this leaves room for long soaks while a wrong file (a disk image, `/dev/zero`) is refused unread.
 */
export const MAX_RESULTS_FILE_BYTES = 256 * 2 ** 20;

/** Reads and validates one results file (v1 or v2, read as v2), or throws `ResultsFileError`. */
// deno-lint-ignore require-await -- async for its callers; the read itself is synchronous and capped
export async function loadResultsFile(path: string): Promise<ResultsFile> {
  let text: string;
  try {
    text = readTextFileCapped(path, MAX_RESULTS_FILE_BYTES);
  } catch (err) {
    if (!(err instanceof FileReadError)) throw err;
    throw new ResultsFileError(
      `${path}: cannot read: ${err.reason}; give a results.json written by loadlab`,
      {
        cause: err,
      },
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ResultsFileError(
      `${path}: not JSON (${
        jsonErrorReason(err)
      }): give a results.json written by loadlab, whole (a run cut ` +
        "short writes it at its end)",
      { cause: err },
    );
  }
  const parsed = parseResultsFile(data);
  if (!parsed.ok) throw new ResultsFileError(`${path}: not a loadlab results file: ${parsed.problem}`);
  return parsed.results;
}
