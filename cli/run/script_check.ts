/**
 * @module
 * A session script type-checked and imported in an isolate of its own before any load (exit 2), after the
 * conversion of a k6 script or a locustfile an experiment names.
 */
import { basename, extname, resolve } from "node:path";
import {
  busyText,
  type HostOutcome,
  type ScriptExports,
  ScriptHost,
  ScriptStopped,
} from "../../runner/script/host/host.ts";
import { UsageError } from "../usage_error.ts";
import { LOCUST_FILE_REFUSED } from "../exit_codes.ts";
import { ScriptNames } from "../../runner/script/sessions/names.ts";
import { DOES_NOT_LOAD } from "../../runner/script/module.ts";
import {
  memoryLimitMbBesideRuns,
  memoryLimitMbOf,
  memoryPassedText,
} from "../../runner/worker/memory_limit.ts";
import type { Plan } from "../../scenarios/plan/types.ts";
import { ExperimentError } from "../../scenarios/experiment_error.ts";
import { scriptFileProblem } from "../../scenarios/script_source.ts";
import { typeProblems } from "../script_type_check.ts";

/** Whether `source` names a session script rather than an experiment file. */
export function isScriptPath(source: string): boolean {
  return /\.(ts|js|mts|mjs|py)$/.test(source);
}

export function isLocustFile(source: string): boolean {
  return source.endsWith(".py");
}

/** Whether `source` is a k6 script, told by parsing it: the k6 converter is imported for a script only. */
export async function isK6Script(source: string): Promise<boolean> {
  if (!isScriptPath(source) || isLocustFile(source)) return false;
  return (await import("../../runner/script/k6/convert/converted_file.ts")).isK6File(resolve(source));
}

/** The name of the experiment a session or k6 script at `path` runs as: its file's name, made a safe one. */
export function scriptExperimentName(path: string): string {
  return basename(path, extname(path)).replace(/[^A-Za-z0-9_.-]/g, "-");
}

/** How long importing a script (its top-level code) may take before it is refused. */
const IMPORT_TIMEOUT_MS = 60_000;

/** Type-checks and imports the script at `path` in an isolate; throws `UsageError` naming file:line. */
export async function checkScript(
  path: string,
  memoryLimitMb = memoryLimitMbBesideRuns(),
  signal?: AbortSignal,
): Promise<ScriptExports> {
  // Its top level ran within this limit already (the plan's check after the options' one).
  const known = ScriptHost.importedBefore(path, memoryLimitMb);
  if (known !== undefined) return known;
  // The type check and the import each take a process or an isolate to start: they run at once.
  const opening = ScriptHost.open(path, IMPORT_TIMEOUT_MS, memoryLimitMb, signal);
  opening.catch(() => {}); // awaited below, after the type check
  let problems: string[];
  try {
    problems = await typeProblems(path, signal);
  } catch (err) {
    const opened = await opening.catch(() => null);
    opened?.host?.close();
    if (err instanceof ScriptStopped && opened?.host === null && opened.outcome.kind === "stopped") {
      throw new ScriptStopped("the script's type check and its top level");
    }
    throw err;
  }
  const opened = await opening;
  opened.host?.close();
  if (problems.length > 0) {
    throw new UsageError(`${basename(path)} does not type-check: ${problems.slice(0, 5).join("; ")}`);
  }
  if (opened.host === null) {
    if (opened.outcome.kind === "stopped") throw new ScriptStopped("the script's top level");
    throw new UsageError(importProblem(basename(path), opened.outcome));
  }
  return opened.exports;
}

function importProblem(name: string, outcome: HostOutcome): string {
  // One bounded line, its place kept at its start and the environment's secrets redacted.
  if (outcome.kind === "failed") return new ScriptNames().shownPlaced(outcome.message);
  if (outcome.kind === "memory") {
    return `${name}: its top level ${memoryPassedText(outcome.limitMb)} as it was imported: a script that ` +
      "keeps what it makes grows without bound";
  }
  if (outcome.kind === "exited") {
    return `${name}: its module ended its isolate (Deno.exit or process.exit at its top level): a session ` +
      "script must not exit; throw to refuse to run";
  }
  if (outcome.kind === "busy") return `${name}: ${busyText(outcome.busyMs)}`;
  return `${name}: importing it did not end within ${IMPORT_TIMEOUT_MS / 1000} s (a top-level await that ` +
    "never settles?)";
}

/** The experiment (JSON text) `loadlab run session.ts` runs, and the script as checked. */
export async function scriptExperimentText(
  source: string,
  maxMemoryMb?: number,
  signal?: AbortSignal,
): Promise<string> {
  const path = resolve(source);
  const module = await checkScript(path, memoryLimitMbBesideRuns(maxMemoryMb), signal);
  const options = module.options ?? {};
  const experiment = {
    name: scriptExperimentName(path),
    targets: { app: { kind: "builtin" } },
    loads: { session: { model: "connections", connections: 10, duration: "10s" } },
    ...options,
    script: options.script ?? path,
  };
  return JSON.stringify(experiment);
}

/** Converts and checks once each script the plan names; one that fails is an `ExperimentError`. */
export async function checkPlanScripts(plan: Plan, signal?: AbortSignal): Promise<void> {
  const paths = new Map<string, string>(), limits = new Map<string, number>();
  const attacks = [...plan.runs.flatMap((r) => [r, ...r.parts ?? []]), ...plan.searches.map((s) => s.base)];
  for (const { attack } of attacks) {
    if (attack.script === undefined) continue;
    const path = paths.get(attack.script.path) ?? await convertedPath(attack.script.path);
    // Runs may share one script object: its conversion maps to itself.
    paths.set(attack.script.path, path).set(path, path);
    attack.script.path = path;
    if (!limits.has(path)) limits.set(path, memoryLimitMbOf({ ...attack, workers: attack.workers ?? 1 }));
  }
  for (const [path, limitMb] of limits) {
    await checkScript(path, limitMb, signal).catch((err) => {
      // A locustfile whose top level raises exits as Locust does on its import's exception.
      const raised = err instanceof UsageError && path.endsWith(".py.js") &&
        err.message.includes(DOES_NOT_LOAD);
      throw raised ? new UsageError(err.message, { cause: err, exitCode: LOCUST_FILE_REFUSED }) : err;
    });
  }
}

async function convertedPath(file: string): Promise<string> {
  const problem = scriptFileProblem(file);
  if (problem !== null) throw new ExperimentError([{ path: "script", message: `${file}: ${problem}` }]);
  try {
    return isLocustFile(file)
      ? (await import("../../runner/script/locust/file.ts")).locustSessionPath(file)
      : (await import("../../runner/script/k6/convert/converted_file.ts")).sessionScriptPath(file);
  } catch (err) {
    // A converter's refusal (K6ConvertError, LocustConvertError) lists each place it cannot convert.
    if (!(err instanceof Error) || !/^(K6|Locust)ConvertError$/.test(err.name)) throw err;
    const { problems } = err as Error & { problems: string[] };
    throw new ExperimentError(problems.map((message) => ({ path: "script", message })), { cause: err });
  }
}
