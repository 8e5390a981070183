/**
 * @module
 * The experiment `loadlab run` reads: a file, a preset or a session script, with the run's flags, a
 * `--replay` schedule, and what is left when a stop comes while it reads.
 */
import { resolve } from "node:path";
import type { RunArgs } from "./args.ts";
import { UsageError } from "../usage_error.ts";
import {
  checkPlanScripts,
  isK6Script,
  isLocustFile,
  isScriptPath,
  scriptExperimentName,
  scriptExperimentText,
} from "./script_check.ts";
import { K6_EXIT, LOCUST_FILE_REFUSED } from "../exit_codes.ts";
import type { K6Paths } from "../../scenarios/k6/paths.ts";
import { ExperimentError } from "../../scenarios/experiment_error.ts";
import { scriptFileProblem } from "../../scenarios/script_source.ts";
import {
  hasLoadFlags,
  isOriginName,
  K6_FLAGS_TOLD,
  type K6Flags,
  LOAD_FLAGS_TOLD,
  LOCUST_FLAGS_TOLD,
  type ScriptLoadArgs,
  sessionLoadOf,
} from "./script_load_flags.ts";
import { passInputs } from "../../runner/script/isolate_inputs.ts";
import { ScriptStopped } from "../../runner/script/host/host.ts";
import { readOpenFileLimit } from "../../system/descriptors.ts";
import { statOrNull } from "../../system/path_lookup.ts";
import { readOrRefuse, readTextFileCapped } from "../../system/read_capped.ts";
import { MAX_EXPERIMENT_FILE_BYTES } from "../../validation/input_limits.ts";
import { loadRunnable, type Runnable } from "../../scenarios/load.ts";
import type { Plan } from "../../scenarios/plan/types.ts";
import { estimateDurationMs } from "../../scenarios/plan/plan.ts";
import type { Interrupt } from "../live.ts";
import { ExperimentOutput } from "../../scenarios/run/output.ts";
import type { ResultsFile } from "../../results/mod.ts";
import { renderReport } from "../../report/html/render.ts";
import { loadResultsFile } from "../../results/io.ts";
import { describeChange } from "../../results/schema/steering.ts";
import { modelMisfit } from "../../runner/steering.ts";
import { findPreset, PRESETS } from "../../scenarios/presets/mod.ts";
import { terminalSafe } from "../../validation/terminal_text.ts";

/** An experiment as read and planned, with its text, as it runs, its import notes and preset name. */
export interface RunSource extends Runnable {
  text: string;
  preset?: string;
}

/** The experiment `args` name and its plan: notes printed, schedule replayed, scripts checked. */
async function readRunPlan(args: RunArgs, signal?: AbortSignal): Promise<{ source: RunSource; plan: Plan }> {
  // A session script runs as the experiment its options describe; any script is checked before a load.
  passInputs({ vars: args.scriptLoad?.env ?? {} }, true);
  const script = isScriptPath(args.source);
  if (!script && args.scriptLoad !== undefined) {
    throw new UsageError(
      `${args.source}: ${LOAD_FLAGS_TOLD}, Locust's flags and k6's flags are for a script; an ` +
        "experiment file's loads say its load (change them with --set)",
    );
  }
  const origin = Object.keys(args.targets).find(isOriginName);
  if (origin !== undefined && !(script && await isK6Script(args.source))) {
    throw new UsageError(
      `--target ${origin}=URL sends a k6 script's requests to that origin elsewhere, and ${args.source} is no ` +
        "k6 script; name a target of the file (--target NAME=URL), or use a script's routes",
    );
  }
  const source = await loadK6Aware(args, script ? await scriptText(args, signal) : undefined);
  for (const note of source.notes) console.error(terminalSafe(`${args.source}: note: ${note}`));
  const plan = args.replay ? await withReplayedSchedule(source.plan, args.replay) : source.plan;
  // Scripts are converted once the file is valid, each converter loaded only for a script of its kind.
  await checkPlanScripts(plan, signal).catch((err) => {
    // Stopped while a file's script was checked: the results written then carry the experiment's name.
    if (err instanceof ScriptStopped) err.experiment = plan.experiment.name;
    throw err;
  });
  const hours = estimateDurationMs(plan) / 3_600_000;
  if (hours > 24 && !args.long) {
    throw new UsageError(
      `${args.source}: ${plan.runs.length} runs of about ${
        Math.round(hours)
      } h together (targets x loads x ` +
        "sweep points x repeats, each run's duration): over a day; give --long to run it, or fewer of them",
    );
  }
  if (args.abortOnFail && plan.experiment.thresholds.length === 0) {
    throw new UsageError(
      `--abort-on-fail stops a run when a threshold fails, and ${args.source} has none; ` +
        'add one to the file, e.g. thresholds: ["p99<200ms"]',
    );
  }
  return { source, plan };
}

/** The experiment of session script `args.source` (a k6 script's from its options), load flags over it. */
async function scriptText(args: RunArgs, signal?: AbortSignal): Promise<{ text: string; paths?: K6Paths }> {
  const problem = scriptFileProblem(resolve(args.source));
  const exitCode = isLocustFile(args.source) ? LOCUST_FILE_REFUSED : undefined; // Locust's for a file
  if (problem !== null) throw new UsageError(`${args.source}: ${problem}`, { exitCode });
  const flags = args.scriptLoad ?? { env: {} };
  if (await isK6Script(args.source)) {
    // Before the flags pass: k6's runtime, which it imports, would read them as this process's own.
    const { k6ExperimentText } = await import("../k6/source.ts");
    if (flags.k6 !== undefined) passK6Flags(flags.k6);
    // What shows k6's request phases: the full summary and the summary export.
    passInputs({ k6: { phases: args.summaryMode === "full" || flags.k6?.summaryExport !== undefined } });
    return k6ExperimentText(args.source, args.targets, flags, args.maxMemoryMb, signal);
  }
  if (isLocustFile(args.source)) return { text: await locustText(args.source, flags) };
  if (flags.locust !== undefined) {
    throw new UsageError(
      `${args.source}: ${LOCUST_FLAGS_TOLD} are Locust's flags, for a locustfile (locustfile.py)`,
    );
  }
  if (flags.k6 !== undefined) {
    throw new UsageError(
      `${args.source}: ${K6_FLAGS_TOLD} are k6's flags, for a k6 script (a session's thresholds and ` +
        "outputs are its experiment's)",
    );
  }
  const text = await scriptExperimentText(args.source, args.maxMemoryMb, signal);
  if (!hasLoadFlags(flags)) return { text };
  const file = JSON.parse(text);
  return { text: JSON.stringify({ ...file, loads: { session: sessionLoadOf(flags, file.loads) } }) };
}

/** Locustfile `source`'s experiment (refused with `file:line: why`, Locust's exit 1, if it cannot run). */
async function locustText(source: string, flags: ScriptLoadArgs): Promise<string> {
  if (flags.iterations !== undefined) {
    throw new UsageError(
      `${source}: -i/--iterations is locust-plugins' flag, not Locust's (which refuses it); a locustfile's ` +
        "run is timed: give -t, or raise StopUser in a task after its count",
    );
  }
  const load = sessionLoadOf({ ...flags, vus: flags.vus ?? 1 });
  const [{ LocustConvertError }, { locustExperimentText, LocustInputError }] = await Promise.all([
    import("../../runner/script/locust/convert.ts"),
    import("../../runner/script/locust/experiment.ts"),
  ]);
  try {
    const path = resolve(source);
    return await locustExperimentText(path, load, flags.vus ?? 1, flags.locust ?? {}, flags.durationMs);
  } catch (err) {
    const refused = err instanceof LocustConvertError || err instanceof LocustInputError;
    if (!refused && !(err instanceof Deno.errors.NotFound)) throw err;
    const message = refused ? err.message : `${source}: no such file`;
    throw new UsageError(message, { cause: err, exitCode: LOCUST_FILE_REFUSED });
  }
}

/** Passes k6's flags the script's isolates honour, before they import it. */
function passK6Flags(k6: K6Flags): void {
  const { tags, httpDebug, secretSources, consoleOutput: log, compatibilityMode } = k6;
  const consoleOutput = log && resolve(log);
  passInputs({ k6: { tags, httpDebug, secretSources, consoleOutput, compatibilityMode } });
}

/** `loadSource` of a script's experiment, a k6 script's problems told at its `options` paths. */
async function loadK6Aware(args: RunArgs, script?: { text: string; paths?: K6Paths }): Promise<RunSource> {
  try {
    return await loadSource(args, script?.text);
  } catch (err) {
    if (!(err instanceof ExperimentError) || script?.paths === undefined) throw err;
    const issues = script.paths.issues(err.issues);
    throw new ExperimentError(issues, { file: args.source, cause: err, exitCode: K6_EXIT.invalidConfig });
  }
}

/** The plan of a file or a preset (throws `ExperimentError` or `UsageError`). */
async function loadSource(args: RunArgs, scriptText?: string): Promise<RunSource> {
  const common = {
    ...args,
    file: args.source,
    // `--target ORIGIN=URL` sends a k6 script's origin (cli/k6/source.ts), naming no target of the plan.
    targets: Object.fromEntries(Object.entries(args.targets).filter(([name]) => !isOriginName(name))),
    openFileLimit: readOpenFileLimit(),
  };
  if (args.source.startsWith("preset:")) {
    const name = args.source.slice("preset:".length);
    const preset = findPreset(name);
    if (!preset) {
      throw new UsageError(
        `${args.source}: no such preset; use one of ${PRESETS.map((p) => `preset:${p.name}`).join(", ")}`,
      );
    }
    return { ...await loadRunnable(preset.text, common), text: preset.text, preset: name };
  }
  if (scriptText !== undefined) return { ...await loadRunnable(scriptText, common), text: scriptText };
  if (/\.(toml|ini)$/i.test(args.source)) {
    throw new UsageError(`${args.source}: an experiment file is YAML or JSON; write it in one of them`);
  }
  const text = readOrRefuse(
    () => readTextFileCapped(args.source, MAX_EXPERIMENT_FILE_BYTES),
    (why, cause) =>
      new UsageError(
        `${args.source}: cannot read: ${why}; give an experiment file (YAML or JSON) or preset:NAME`,
        cause,
      ),
  );
  return { ...await loadRunnable(text, common), text };
}

/** The experiment `args` name; when a stop ends its script's check, the exit code once files are written. */
export async function readRunPlanOrStop(
  command: string,
  args: RunArgs,
  interrupt: Interrupt,
): Promise<{ source: RunSource; plan: Plan } | number> {
  // A second signal before the plan's own writer opens leaves the file of a run stopped before any load.
  interrupt.beforeQuit(() => writeStopped(args, "reading the experiment, before any run"));
  const read = await readRunPlan(args, interrupt.signal).catch((err) => {
    if (err instanceof ScriptStopped) return err;
    throw err;
  });
  if (!(read instanceof ScriptStopped)) return read;
  const path = writeStopped(args, read.phase, read.experiment);
  console.error(`loadlab ${command}: ${read.message}${path === null ? "" : `; results: ${path}`}`);
  return interrupt.exitCode();
}

/** Writes the files of `name` stopped in `phase` unless `--resume` keeps one; their path or null. */
function writeStopped(args: RunArgs, phase: string, name = scriptExperimentName(args.source)): string | null {
  const source = args.source.startsWith("preset:") ? { preset: args.source.slice(7) } : { file: args.source };
  const render = (results: ResultsFile) => renderReport(results, { keepSecrets: args.keepSecrets });
  const dir = args.outDir ?? `out/${name}`;
  const output = ExperimentOutput.fresh(dir, { name, ...source }, render, args.keepSecrets);
  if (args.resume && statOrNull(output.resultsPath) !== null) return null;
  output.results = { ...output.results, stoppedIn: phase };
  output.writeSync();
  return output.resultsPath;
}

/** `plan` with each recorded run's changes in its attack config (`steering`); throws `UsageError`. */
async function withReplayedSchedule(plan: Plan, path: string): Promise<Plan> {
  const recorded = await loadResultsFile(path);
  const steered = recorded.runs.filter((r) => (r.steering ?? []).length > 0);
  if (steered.length === 0) {
    throw new UsageError(`--replay ${path}: no run in it was steered; there is no schedule to replay`);
  }
  const byName = new Map(plan.runs.map((r) => [r.name, r]));
  const problems: string[] = [];
  for (const run of steered) {
    const planned = byName.get(run.name);
    if (!planned) {
      problems.push(`run "${run.name}" is not a run of this experiment (${[...byName.keys()].join(", ")})`);
      continue;
    }
    run.steering!.forEach((change, i) => {
      const misfit = modelMisfit(change.action, planned.attack.model);
      if (misfit) problems.push(`run "${run.name}" steering[${i}] (${describeChange(change)}): ${misfit}`);
    });
  }
  if (problems.length) throw new UsageError(`--replay ${path}:\n  ${problems.join("\n  ")}`);
  const schedules = new Map(steered.map((r) => [r.name, r.steering!]));
  return {
    ...plan,
    runs: plan.runs.map((r) => {
      const steering = schedules.get(r.name);
      return steering ? { ...r, attack: { ...r.attack, steering } } : r;
    }),
  };
}
