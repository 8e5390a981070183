/**
 * @module
 * Reads and writes `results.json` (whole or not at all), the only part of `results/` that touches `Deno.*`.
 */
import denoJson from "../deno.json" with { type: "json" };
import { MAX_RESULTS_FILE_BYTES, parseResultsFile, ResultsFileError } from "./mod.ts";
import { readSources, redactResults } from "./redact_results.ts";
import { escapeInvisible } from "../validation/terminal_text.ts";
import { jsonErrorReason } from "../validation/json_document.ts";
import { readOrRefuse, readTextFileCapped } from "../system/read_capped.ts";
import { writeTextAtomic } from "../system/output_file.ts";
import { programOutput } from "../system/path_lookup.ts";
import {
  type EnvironmentInfo,
  RESULTS_SCHEMA,
  type ResultsFile,
  type RunResult,
  type ThresholdResult,
} from "./schema/results.ts";

const LOADLAB_VERSION: string = denoJson.version;

/** This machine and build as a results file records them; a field that cannot be read is left unknown. */
function environmentInfo(): EnvironmentInfo {
  const gitCommit = currentGitCommit();
  const cpuInfo = safe(() => Deno.readTextFileSync("/proc/cpuinfo"));
  return {
    loadlab: LOADLAB_VERSION,
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    typescript: Deno.version.typescript,
    os: `${Deno.build.os} ${safe(() => Deno.osRelease()) ?? ""}`.trim(),
    arch: Deno.build.arch,
    cpu: cpuInfo?.split("\n").find((l) => l.startsWith("model name"))?.split(":")[1]?.trim() ?? "unknown",
    cores: navigator.hardwareConcurrency,
    hostname: safe(() => Deno.hostname()),
    ...(gitCommit ? { gitCommit } : {}),
  };
}

/** The commit checked out in the working directory (spawns `git`); undefined without one. */
function currentGitCommit(): string | undefined {
  const commit = programOutput("git", ["rev-parse", "HEAD"]);
  return commit !== null && /^[0-9a-f]{40,64}$/.test(commit) ? commit : undefined;
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

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

/** Writes `results.json` atomically, secrets redacted unless `keepSecrets` (`--no-redact`). */
export async function writeResultsFile(
  path: string,
  results: ResultsFile,
  opts: { keepSecrets?: boolean } = {},
): Promise<void> {
  await writeTextAtomic(path, resultsText(results, opts));
}

/**
 * Where a results file goes so that a run stopped early (Ctrl-C) or answered by nothing replaces no complete
 * file with answers (an earlier good measurement): `path`, else `NAME.partial.json` beside it.
 */
export function pathKeepingAnswers(path: string, results: ResultsFile): string {
  const whole = (r: Partial<ResultsFile>) => r.complete !== false && r.runs?.some((run) => run.requests > 0);
  if (whole(results)) return path;
  try {
    if (!whole(JSON.parse(readTextFileCapped(path, MAX_RESULTS_FILE_BYTES)))) return path;
  } catch {
    return path;
  }
  return path.replace(/(\.json)?$/, ".partial.json");
}

/** The text of `results.json`: secrets redacted unless `keepSecrets`, invisible characters escaped. */
export function resultsText(results: ResultsFile, opts: { keepSecrets?: boolean } = {}): string {
  const shown = opts.keepSecrets ? results : redactResults(results);
  return escapeInvisible(JSON.stringify(shown, null, 2)) + "\n";
}

/** Reads and validates one results file (v1 and v2 read as v3), or throws `ResultsFileError`. */
export async function loadResultsFile(path: string): Promise<ResultsFile> {
  const text = readOrRefuse(
    () => readTextFileCapped(path, MAX_RESULTS_FILE_BYTES),
    (why, cause) =>
      new ResultsFileError(`${path}: cannot read: ${why}; give a results.json written by loadlab`, cause),
  );
  const fail = (message: string, cause?: unknown) => new ResultsFileError(`${path}: ${message}`, { cause });
  const notJson = (why: string) =>
    `not JSON (${why}): give a results.json written by loadlab, whole (a run cut short writes it at its end)`;
  return await resultsFromText(text, fail, notJson);
}

/** The results file in `text`; `fail` makes the error of a problem, `notJson` says text that is no JSON. */
export async function resultsFromText(
  text: string,
  fail: (message: string, cause?: unknown) => Error,
  notJson: (why: string) => string,
): Promise<ResultsFile> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw fail(notJson(jsonErrorReason(err)), err);
  }
  const parsed = parseResultsFile(data);
  if (!parsed.ok) throw fail(`not a loadlab results file: ${parsed.problem}`);
  await readSources(parsed.results);
  return parsed.results;
}
