/**
 * @module
 * `loadlab run FILE|preset:NAME` and `demo`: load, check outputs, run the plan with progress, judge, write.
 */
import { defined } from "../../validation/defined.ts";
import { type Interrupt, interruptSignal, liveLine } from "../live.ts";
import { parseRunArgs, RUN_HELP, type RunArgs } from "./args.ts";
import { exampleRuntimeLines, runProgress } from "./progress.ts";
import { assertOutputsWritable, lockOutDir } from "./preflight.ts";
import { UsageError } from "../usage_error.ts";
import { runCommand } from "../command_errors.ts";
import { dirname, resolve } from "node:path";
import { isK6Script, isLocustFile } from "./script_check.ts";
import { memoryLimitMbBesideRuns } from "../../runner/worker/memory_limit.ts";
import type { K6Summaries } from "../k6/summary.ts";
type K6SummaryCode = typeof import("../k6/summary.ts");
import { k6NamedSamples } from "../../results/export/k6/series.ts";
import { readRunPlanOrStop, type RunSource } from "./source.ts";
import type { Plan } from "../../scenarios/plan/types.ts";
import { runPlan, type RunPlanOutcome } from "../../scenarios/run/run_plan.ts";
import { assertWritable, osErrorText, outputClobbersInput, OutputError } from "../../system/output_file.ts";
import { redactResults } from "../../results/redact_results.ts";
import { terminalSafe } from "../../validation/terminal_text.ts";
import type { ResultsFile } from "../../results/mod.ts";
import { boxTable } from "../../report/terminal/tables.ts";
import { renderReport } from "../../report/html/render.ts";
import { EXIT, K6_EXIT, k6ExitCodeOf } from "../exit_codes.ts";
import { ciFilesToProbe, endLoad, guardSecrets } from "../ci_outputs.ts";
import { buildFindings } from "../../results/conclude/findings.ts";
import {
  abortNote,
  flaggedRunNote,
  formatThresholdActual,
  thresholdLine,
  thresholdRunVerdict,
} from "../../results/thresholds/text.ts";
import type { Dashboard } from "../dashboard/server.ts";
import { type GateAsked, readGate } from "../baseline_flags.ts";
import type { MetricsExporter } from "../metrics_out/exporter.ts";
import type { MetricsOutput } from "../../results/export/metrics_output.ts";
import { parseMetricsOuts } from "../flag_values.ts";
import { exportLine } from "../../results/export/summary.ts";

const DEMO_HELP = `loadlab demo: the built-in target under a short load of each model, with a report

Usage: loadlab demo [--out-dir out/demo] [--quick]

  --out-dir <dir>  where results.json, report.html and target logs go (default out/demo)
  --quick          a shorter demo (about a quarter of the time)
  -h, --help       this help

The same as 'loadlab run preset:demo'; every flag of 'loadlab run' works here too.`;

/** `loadlab demo`: `loadlab run preset:demo` into `--out-dir` (default `out/demo`); the exit code. */
export function runDemoCommand(argv: string[]): Promise<number> {
  return runCommand("demo", () => run("demo", ["preset:demo", ...argv], DEMO_HELP));
}

export function runRunCommand(argv: string[]): Promise<number> {
  return runCommand("run", () => run("run", argv, RUN_HELP));
}

/** `parse`'s result; a k6 script's refusal takes k6's code: 104 for a value out of range, else 255. */
export async function withK6Refusals<T>(argv: string[], parse: () => Promise<T>): Promise<T> {
  try {
    return await parse();
  } catch (err) {
    if (!(err instanceof UsageError) || err.exitCode !== undefined) throw err;
    const scripts = await Promise.all(argv.map((a) => !a.startsWith("-") && isK6Script(a)));
    if (!scripts.includes(true)) throw err;
    const exitCode = err.outOfRange ? K6_EXIT.invalidConfig : K6_EXIT.commandFailed;
    throw new UsageError(err.message, { cause: err, exitCode });
  }
}

async function run(command: string, argv: string[], help: string): Promise<number> {
  const args = await withK6Refusals(argv, () => parseRunArgs(argv, command, help));
  if (args.summaryMode !== undefined && !await isK6Script(args.source)) {
    throw new UsageError("--summary-mode: k6's end-of-test summary is a k6 script's; drop it here");
  }
  // Ctrl-C and SIGTERM are answered from the script's check to the end of the load.
  const interrupt = interruptSignal();
  // Locust's --json: stdout is the JSON a program reads; every other line goes to stderr.
  const log = console.log;
  if (args.scriptLoad?.locust?.json) console.log = console.error;
  try {
    const read = await readRunPlanOrStop(command, args, interrupt);
    return typeof read === "number" ? read : await runRead(command, argv, args, read, interrupt);
  } finally {
    interrupt.dispose();
    console.log = log;
  }
}

async function runRead(
  command: string,
  argv: string[],
  args: RunArgs,
  { source, plan }: { source: RunSource; plan: Plan },
  interrupt: Interrupt,
): Promise<number> {
  guardSecrets(args.keepSecrets || plan.experiment.redact === false, [argv, plan.experiment]);
  // Before the output folder: a missing or wrong baseline is exit 2, not a wasted run.
  const gate = await readGate(args, plan.experiment);
  const outDir = await checkedOutDir(args, plan);
  // Held until this function returns: one run writes a folder at a time.
  await using _lock = await lockOutDir(command, outDir);
  // Which runtime serves each framework app, before the first run: it changes their numbers several-fold.
  for (const line of exampleRuntimeLines(plan)) console.error(`loadlab ${command}: ${line}`);
  // A locustfile's request and end listeners run here, on one module: what they count is the run's.
  const heard = isLocustFile(args.source)
    ? await (await import("../../runner/script/locust/file.ts")).loadLocustListeners(resolve(args.source))
    : null;
  const context = { source, outDir, baseline: gate.baseline, interrupt };
  // An Artillery script's hooks send what they emit on k6's metric channel: heard from before the load.
  if (args.artillery) (await import("../../runner/script/k6/metrics_channel.ts")).collectK6Metrics();
  const outcome = await execute(command, plan, { ...args, failOn: gate.failOn }, context);
  if (typeof outcome === "number") return outcome;
  if (args.artillery) {
    const { endArtilleryRun } = await import("../../runner/script/artillery/metrics.ts");
    const { scriptEnd } = await import("../../scenarios/artillery/convert.ts");
    const patch = await endArtilleryRun(outcome.results, scriptEnd, args.artillery);
    await outcome.output.update(patch), Object.assign(outcome.results, patch);
  }
  if (outcome.k6) {
    const own = [`${outDir}/results.json`, `${outDir}/report.html`];
    const { endK6Run } = await import("../k6/summary.ts");
    await endK6Run(outcome.k6, outcome.results, own, args.scriptLoad?.k6, args.summaryMode);
  }
  const strict = args.strict || plan.experiment.strict;
  let code = await conclude(command, outcome, { ...args, strict }, gate);
  // Artillery judges a run nothing answered as any other: by its ensure checks (the line above says why).
  const judged = outcome.results.thresholds.every((t) => t.ok) ? EXIT.ok : EXIT.thresholdFailed;
  if (args.artillery && code === EXIT.noResponse) code = judged;
  // A hook's uncaught throw ends Artillery's test at once, with its worker's exit code.
  if (args.artillery && outcome.results.runs.some((r) => r.abortedBy?.testAbort)) return 11;
  if (isLocustFile(args.source)) return await finishLocustRun(outcome.results, args, code, outDir, heard);
  const failedCheck = outcome.results.runs.some((run) =>
    run.flows?.some((f) => f.steps.some((s) => s.checks?.some((c) => c.failed > 0)))
  );
  // Artillery's expect plugin exits 21 when an expectation failed and nothing else did.
  if (args.artillery && code === EXIT.ok && failedCheck) return 21;
  return outcome.k6 ? k6ExitCodeOf(code, outcome.results.runs) : code;
}

/** A locustfile's run ends as Locust's: its table, its files (`--html`, `--csv`, `--json`), its exit code. */
async function finishLocustRun(
  results: ResultsFile,
  args: RunArgs,
  code: number,
  outDir: string,
  heard: (() => Promise<void>) | null,
) {
  const locust = args.scriptLoad?.locust ?? {}, users = args.scriptLoad?.vus ?? 1;
  await heard?.();
  const { locustExitCode, locustJson, locustStats, locustTable, writeLocustCsv } = await import(
    "../../runner/script/locust/stats.ts"
  );
  const { locustEnd } = await import("../../runner/script/locust/runtime.ts");
  const set = heard && results.runs.length > 0 ? await locustEnd(locustStats(results.runs[0])) : null;
  for (const run of results.runs) {
    console.log(`\n${terminalSafe(locustTable(run))}`);
    if (locust.json) await Deno.stdout.write(new TextEncoder().encode(locustJson(run) + "\n"));
    const files = [
      ["--html", locust.html, () => Deno.copyFile(`${outDir}/report.html`, locust.html!)],
      ["--csv", locust.csv, () => writeLocustCsv(locust.csv!, run, users, locust.csvFullHistory)],
      ["--json-file", locust.jsonFile, () => Deno.writeTextFile(`${locust.jsonFile}.json`, locustJson(run))],
    ] as const;
    // Each in its folder, made first, as Locust makes it (os.makedirs).
    for (const [flag, path, write] of files) {
      const made = path === undefined ? null : Deno.mkdir(dirname(path), { recursive: true });
      await made?.then(write).catch((err: Error) => {
        throw new OutputError(`${flag} ${path}: cannot write: ${err.message}`, { cause: err });
      });
    }
  }
  return set ?? locustExitCode(results, code, locust.exitCodeOnError);
}

/** The output folder, checked before any load: not over the experiment file (2), writable (5). */
async function checkedOutDir(args: RunArgs, plan: Plan): Promise<string> {
  const outDir = args.outDir ?? `out/${plan.experiment.name}`;
  const outputs: Array<[string, string | undefined]> = [
    ["--out-dir", `${outDir}/results.json`],
    ["--out-dir", `${outDir}/report.html`],
    ...ciFilesToProbe(args),
    ["--summary-export", args.scriptLoad?.k6?.summaryExport],
    ["--console-output", args.scriptLoad?.k6?.consoleOutput],
  ];
  const clash = outputClobbersInput(outputs, [
    ["the experiment file", args.source.startsWith("preset:") ? undefined : args.source],
  ]);
  if (clash) throw new UsageError(clash);
  await assertWritable(outDir).catch((err) => {
    throw new OutputError(`--out-dir ${outDir}: ${osErrorText(err)}; give a writable folder`, { cause: err });
  });
  // The run's own files too: their first write goes out beside the first run's load, not before it.
  await assertOutputsWritable(plan, outputs);
  return outDir;
}

/** A plan's outcome and the exit code a stop by a signal gives (130 Ctrl-C, 143 SIGTERM). */
type Stopped = RunPlanOutcome & { stopExitCode: number; k6: K6Summaries | null };

/** Runs the plan with progress; an exit code when it could not finish normally. */
async function execute(
  command: string,
  plan: Plan,
  args: RunArgs,
  { source, outDir, baseline, interrupt }: {
    source: RunSource;
    outDir: string;
    baseline: ResultsFile | undefined;
    interrupt: Interrupt;
  },
): Promise<Stopped | number> {
  const keepSecrets = args.keepSecrets || plan.experiment.redact === false;
  const gated = plan.experiment.thresholds.length > 0;
  const dashboard = args.dashboard && (await import("../dashboard/server.ts"))
    .startDashboard(command, plan.experiment.name, { ...args.dashboard, keepSecrets }, gated);
  // k6's -q: no live line and no per-run header, only each run's summary line.
  const quiet = args.scriptLoad?.k6?.quiet || args.scriptLoad?.locust?.onlySummary ||
    args.artillery?.quiet === true;
  const live = liveLine(!quiet);
  const progress = runProgress({
    live,
    terminal: Deno.stderr.isTerminal() && !quiet,
    quiet,
    everyOne: `${outDir}/report.html`,
  });
  const outputs = metricsOutputs(args, plan);
  const exporter = outputs.length > 0
    ? new (await import("../metrics_out/exporter.ts")).MetricsExporter(outputs)
    : null;
  const baseHooks = dashboard ? dashboard.hooks(`${outDir}/results.json`, progress) : progress;
  const k6Code = await isK6Script(args.source) ? import("../k6/summary.ts") : null;
  try {
    const planned = await runPlan(plan, {
      outDir,
      resume: args.resume,
      keepSecrets,
      signal: interrupt.signal,
      onOutput: (output) => interrupt.beforeQuit(() => output.writeSync()),
      ...defined({ steering: dashboard?.steering }),
      hooks: exporter ? exporter.planHooks(plan.experiment.name, baseHooks) : baseHooks,
      experiment: experimentInfo(args, source),
      renderReport: (results) =>
        renderReport(results, { keepSecrets, compare: baseline, failOn: args.failOn }),
    });
    const finished = await finishOutputs(planned, { ...args, keepSecrets }, exporter, dashboard, k6Code);
    return { ...finished, stopExitCode: interrupt.exitCode() };
  } finally {
    live.done();
    await exporter?.close(0);
    // A k6 script's handleSummary follows: a signal then ends loadlab as the system does.
    interrupt.dispose();
    await dashboard?.finish();
  }
}

/** What results.json records of where the experiment came from: its file or preset, its text, `--quick`. */
function experimentInfo(args: RunArgs, source: RunSource) {
  return {
    ...(source.preset ? { preset: source.preset } : { file: args.source }),
    source: source.text,
    quick: args.quick,
    ...defined({ ranSource: source.ranSource ?? undefined }),
  };
}

/** The plan's outcome once the metrics outputs are closed, its results shown to CI files and terminal. */
async function finishOutputs(
  planned: RunPlanOutcome,
  args: RunArgs,
  exporter: MetricsExporter | null,
  dashboard: Dashboard | undefined,
  k6Code: Promise<K6SummaryCode> | null,
): Promise<RunPlanOutcome & { k6: K6Summaries | null }> {
  // The CI files, the terminal and k6's summary see what results.json holds: redacted unless asked otherwise.
  const shown = (results: ResultsFile) => args.keepSecrets ? results : redactResults(results);
  // A k6 script's summary, from its exports; its metrics go out as each run's last point.
  const k6 = k6Code === null ? null : await (await k6Code).k6Summaries(
    args.source,
    shown(planned.output.results),
    memoryLimitMbBesideRuns(args.maxMemoryMb),
    args.scriptLoad?.k6,
  );
  if (k6 && exporter) {
    for (const { run, data } of k6.runs) exporter.endOfRun(run, k6NamedSamples(data.metrics));
  }
  // What the metrics outputs delivered is known once they close: the last write of both files carries it.
  if (exporter) await planned.output.update({ export: await exporter.close() });
  const results = shown(planned.output.results);
  await dashboard?.finish(results);
  return { ...planned, results, k6 };
}

/** `--out KIND=URL` flags, else the file's `out:` list (checked with the file). */
function metricsOutputs(args: RunArgs, plan: Plan): MetricsOutput[] {
  return args.metricsOut ?? parseMetricsOuts("out:", plan.experiment.out ?? []);
}

/** Failed thresholds, CI files, paths; the exit code of a run that went to its end (or was stopped). */
async function conclude(command: string, outcome: Stopped, args: RunArgs, gate: GateAsked): Promise<number> {
  const { results } = outcome;
  if (args.resume) {
    const planned = results.experiment.plannedRuns ?? results.runs.length;
    console.log(`resumed: kept ${outcome.resumed} of ${planned} runs from ${outcome.output.resultsPath}`);
  }
  const findings = buildFindings(results);
  if (findings.length) console.log(`\nFindings:\n${findings.map((f) => `  - ${f.text}`).join("\n")}`);
  const failed = results.thresholds.filter((t) => !t.ok);
  if (failed.length) console.log(`\n${terminalSafe(failedTable(failed, results.runs))}`);
  const stopped = abortNote(results);
  if (stopped) console.log(`stopped: ${terminalSafe(stopped)}`);
  // A threshold passed on a flagged run is not a pass to rely on: say so beside it.
  for (const t of results.thresholds.filter((t) => t.ok && !t.pending && flaggedRunNote(t, results.runs))) {
    console.log(terminalSafe(thresholdLine(t, results.runs)));
  }
  for (const s of results.export ?? []) console.log(terminalSafe(exportLine(s)));
  return await endLoad(results, args, {
    command,
    gate,
    say: (text) => console.log(`\n${text}`),
    files: [`results: ${outcome.output.resultsPath}`, `report:  ${outcome.output.reportPath}`],
    // A file that could not be written threw `OutputError` (exit 5) before this point.
    written: true,
    stoppedWith: outcome.interrupted ? outcome.stopExitCode : null,
    k6: outcome.k6 ?? undefined,
  });
}

/** The failed thresholds as an aligned table: expression, scope, run, measured value, the run's verdict. */
function failedTable(failed: ResultsFile["thresholds"], runs: ResultsFile["runs"] = []): string {
  return boxTable([
    ["FAILED threshold", "scope", "run", "actual", "run verdict"],
    ...failed.map((t) => [
      t.expression,
      [t.scope?.target && `target=${t.scope.target}`, t.scope?.load && `load=${t.scope.load}`]
        .filter(Boolean).join(",") || "all",
      t.run,
      // A script's selector can only be checked after its run: one naming no endpoint says so here.
      t.unmatched ? "no such endpoint" : formatThresholdActual(t.expression, t.actual),
      thresholdRunVerdict(t, runs)?.label ?? "-",
    ]),
  ]);
}
