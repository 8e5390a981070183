/**
 * @module
 * `loadlab attack <url>`: one attack with a live line, its summary or JSON, results.json and report.html.
 */
import { defined } from "../../validation/defined.ts";
import { endLoad, guardSecrets } from "../ci_outputs.ts";
import { type GateAsked, readGate } from "../baseline_flags.ts";
import { parseAttackArgs, type ParsedAttack } from "./args.ts";
import { runCommand } from "../command_errors.ts";
import { assertFilesWritable, withWriteFix, writeTextAtomic } from "../../system/output_file.ts";
import { interruptSignal, liveLine } from "../live.ts";
import { RequestLogFailed, runAttack } from "../../runner/attack.ts";
import { terminalSafe } from "../../validation/terminal_text.ts";
import { judgeOnRun, parseThreshold, type Threshold } from "../../results/thresholds/threshold.ts";
import type { ResultsFile, RunResult } from "../../results/mod.ts";
import { EXIT } from "../exit_codes.ts";
import { ghzOutput, type GhzReportOptions } from "../../results/export/ghz/report.ts";
import { thresholdLine } from "../../results/thresholds/text.ts";
import type { Dashboard } from "../dashboard/server.ts";
import { type AttackConfig, parseAttackConfig } from "../../runner/config.ts";
import { measuredDurationMs } from "../../runner/load/models/mod.ts";
import { requestLogError } from "../../runner/load/request_log.ts";
import { runVerdict } from "../../results/conclude/run_verdict.ts";
import { sendFacts } from "../../results/conclude/send_counts.ts";
import { sampledLatency } from "../../results/conclude/responses.ts";
import { exportLine, type ExportSummary } from "../../results/export/summary.ts";
import { checkSelectors } from "../../results/thresholds/selector.ts";
import { endpointTable } from "../../runner/endpoint_table.ts";
import { inFlightLine, withGrpcCalls } from "./grpc_args.ts";
import { DescriptorReserve } from "../../system/descriptors.ts";
import { StoppedBeforeLoad } from "../../runner/worker/collect.ts";
import { statOrNull } from "../../system/path_lookup.ts";
import { lockOutDir } from "../run/preflight.ts";

/** What writes the finished run (the YAML parser with it), loaded once the load starts: not before it. */
const endCode = () => Promise.all([import("../../results/io.ts"), import("../../results/redact_results.ts")]);
let ending: ReturnType<typeof endCode> | undefined;

export function runAttackCommand(argv: string[]): Promise<number> {
  return runCommand("attack", () => attack(argv));
}

/** A ghz command line's run (cli/ghz/command.ts): its report's options, concurrency schedule, exit codes. */
export type GhzRun = GhzReportOptions & {
  concurrencySteps?: AttackConfig["concurrencySteps"];
  tickPhases?: AttackConfig["tickPhases"];
  streamIntervalMs?: number;
  lateBoundMs?: number;
  streamEnd?: Parameters<typeof withGrpcCalls>[2];
  /** Why the run opens more connections than the line asked, said at start-up. */
  moreConnections?: string;
};

/** The attack `argv` stands for; its exit code. */
export async function attack(argv: string[], ghz?: GhzRun): Promise<number> {
  const parsed = parseAttackArgs(argv);
  guardSecrets(parsed.output.keepSecrets, argv);
  if (ghz?.concurrencySteps || ghz?.streamIntervalMs || ghz?.lateBoundMs) {
    const { concurrencySteps, tickPhases, streamIntervalMs, lateBoundMs } = ghz;
    const grpc = { ...parsed.config.grpc, streamIntervalMs };
    const steps = { concurrencySteps, tickPhases };
    parsed.config = parseAttackConfig({ ...parsed.config, ...steps, grpc, lateBoundMs });
  }
  if (parsed.grpc !== undefined) {
    // A ghz command line's oneof of two members sends the later one, as ghz's JSON reader sets them.
    parsed.config = await withGrpcCalls(parsed.config, { ...parsed.grpc, laterOneof: !!ghz }, ghz?.streamEnd);
    const inFlight = inFlightLine(parsed.config);
    if (inFlight !== null && !parsed.output.quiet) console.error(`loadlab attack: ${inFlight}`);
    if (ghz?.moreConnections && !parsed.output.quiet) console.error(`loadlab ghz: ${ghz.moreConnections}`);
  }
  // ghz's report times each call from its actual start: the run keeps that latency (and logs that start).
  if (parsed.output.format !== undefined || ghz) parsed.config = { ...parsed.config, keepSentLatency: true };
  // ghz's report (its latency, every call) reads the request log: a temporary one unless --log names one.
  const callLog = parsed.output.format !== undefined && !parsed.config.logFile
    ? await Deno.makeTempFile({ prefix: "loadlab-calls-", suffix: ".csv" })
    : undefined;
  if (callLog !== undefined) parsed.config = { ...parsed.config, logFile: callLog };
  try {
    return await attackParsed(argv, parsed, callLog !== undefined, ghz);
  } finally {
    if (callLog !== undefined) await Deno.remove(callLog).catch(() => {});
  }
}

/** `tempLog`: the request log is csv's own, not the user's (the run does not name it). */
async function attackParsed(
  argv: string[],
  parsed: ParsedAttack,
  tempLog: boolean,
  ghz?: GhzRun,
): Promise<number> {
  const thresholds = parsed.thresholds.map(parseThreshold);
  const { config, output } = parsed;
  const gate = await checkBeforeLoad(parsed, thresholds);
  // Two attacks writing one file at once: the second is refused (exit 5), as a second run into one --out-dir.
  await using _out = await lockOutputFile(output.outFile);
  await using _report = await lockOutputFile(output.reportFile);
  const gated = thresholds.length > 0;
  const dashboard = output.dashboard && (await import("../dashboard/server.ts"))
    .startDashboard("attack", "attack", { ...output.dashboard, keepSecrets: output.keepSecrets }, gated);
  // Over plaintext there is no certificate: a ghz command line's --insecure there says what the URL says.
  if (config.tls?.insecure && config.url.startsWith("https:")) {
    console.error(
      "loadlab attack: warning: --insecure: server certificates are not verified (recorded in results)",
    );
  }
  // Descriptors held through the load, free again for the files written after it.
  const reserve = new DescriptorReserve();
  const loaded = await runLoad(parsed, thresholds, dashboard).finally(() => reserve.close());
  if (typeof loaded === "number") return loaded;
  if (tempLog) delete loaded.run.logFile;
  return await finish(argv, parsed, { thresholds, gate, dashboard, ghz, ...loaded });
}

/** Locks a file the attack writes, but a device or FIFO (`-o /dev/stdout`): nothing is made beside those. */
function lockOutputFile(path: string | undefined) {
  const there = path === undefined ? null : statOrNull(path);
  return path === undefined || (there && !there.isFile) ? undefined : lockOutDir("attack", path, path);
}

/** What is checked before any load (exit 2 or 5 rather than a wasted run); the baseline is read here. */
async function checkBeforeLoad(parsed: ParsedAttack, thresholds: Threshold[]) {
  const { config, output } = parsed;
  if (!config.script) {
    const rules = (output.failOn ?? []).map((f) => ({ ...f, flag: "--fail-on" }));
    checkSelectors([...thresholds, ...rules], endpointTable(config).endpoints);
  }
  await assertFilesWritable(output.files);
  return await readGate(output);
}

/** The load's outcome: the run, what metrics outputs sent, a failed log, and how it was stopped. */
interface Loaded {
  run: RunResult;
  exported: ExportSummary[] | undefined;
  /** The log filled the disk mid-run: the measured results are still saved, then exit 5 names the log. */
  logFailure: Error | null;
  stoppedWith: number | null;
}

/** Runs the load with its live line, Ctrl-C, metrics outputs and dashboard; a number is an exit code. */
async function runLoad(
  parsed: ParsedAttack,
  thresholds: Threshold[],
  dashboard: Dashboard | undefined,
): Promise<Loaded | number> {
  const { config, output } = parsed;
  const live = liveLine(!output.noLive && !output.quiet && !output.json);
  const interrupt = interruptSignal();
  const exporter = output.metricsOut
    ? new (await import("../metrics_out/exporter.ts")).MetricsExporter(output.metricsOut)
    : null;
  let exported: ExportSummary[] | undefined;
  let run: RunResult | undefined;
  let logFailure: Error | null = null;
  // A local server's waits for a core bound the gate's verdicts; a run that ends first does not wait for it.
  const startMs = performance.now();
  let ended = false;
  const telemetry = import("../../targets/telemetry.ts").then(({ loopbackListener, startTelemetry }) =>
    loopbackListener(config.url).then((watched) =>
      watched && !ended ? startTelemetry(watched, { intervalMs: config.intervalMs, startMs }) : null
    )
  );
  try {
    const plannedMs = measuredDurationMs(config) + config.warmupMs;
    dashboard?.runStarted("attack", 0, 1, Number.isFinite(plannedMs) ? plannedMs : 0);
    run = await runAttack(config, {
      onProgress: dashboard ? (p) => (live.onProgress?.(p), dashboard.progress(p)) : live.onProgress,
      onStart: () => void (ending ??= endCode()),
      signal: interrupt.signal,
      ...defined({ steering: dashboard?.steering }),
      abortOn: parsed.abortOnFail
        ? thresholds.map((threshold) => ({ threshold, delayMs: parsed.abortOnFail!.delayMs }))
        : [],
      ...exporter?.attackHooks(config.segment),
    });
  } catch (err) {
    // Ctrl-C or SIGTERM while the load workers prepared: nothing was sent, nothing to write.
    if (err instanceof StoppedBeforeLoad) {
      live.done();
      console.error(`loadlab attack: ${err.message}`);
      return interrupt.exitCode();
    }
    const unwritable = config.logFile ? requestLogError(err, config.logFile) : null;
    if (!unwritable) throw err;
    if (!(err instanceof RequestLogFailed)) {
      live.done();
      console.error(`loadlab attack: ${unwritable.message}`);
      return EXIT.outputNotWritable;
    }
    run = err.run;
    logFailure = unwritable;
  } finally {
    ended = true;
    const series = (await Promise.race([telemetry, null]))?.stop();
    if (run && series?.length) run = { ...run, telemetry: series };
    live.done();
    exported = await exporter?.close();
    interrupt.dispose();
    if (!run) await dashboard?.finish();
  }
  // Stopped by Ctrl-C or SIGTERM: the run is marked as `run` marks its interrupted ones.
  const interrupted = interrupt.signal.aborted;
  if (interrupted) run = { ...run, incomplete: true };
  return { run, exported, logFailure, stoppedWith: interrupted ? interrupt.exitCode() : null };
}

/** Judges, writes and prints a finished load; returns the exit code. */
async function finish(
  argv: string[],
  parsed: ParsedAttack,
  done: Loaded & {
    thresholds: Threshold[];
    gate: GateAsked;
    dashboard?: Dashboard;
    ghz?: GhzRun;
  },
): Promise<number> {
  const { output } = parsed;
  const { run, exported, logFailure } = done;
  const [{ buildResultsFile }, { redactResults }] = await (ending ??= endCode());
  if (run.segment?.lateMs) {
    console.error(
      `loadlab attack: segment ${run.segment.index}/${run.segment.count} started ${run.segment.lateMs} ms ` +
        `after --start-at ${run.segment.startAt}; its sends due before then went out late (counted)`,
    );
  }
  const checked = judgeOnRun(done.thresholds, run);
  const assembled: ResultsFile = {
    ...buildResultsFile({
      // The command line: its secrets, known since the parse, are redacted below with the file's.
      experiment: { name: "attack", source: ["loadlab", "attack", ...argv].join(" ") },
      runs: [run],
      thresholds: checked,
    }),
    ...defined({ complete: done.stoppedWith === null ? undefined : false, export: exported }),
  };
  // Everything written or printed from here on shows the redacted copy; the load sent the real values.
  const results = output.keepSecrets ? assembled : redactResults(assembled);
  await done.dashboard?.finish(results);
  const outFile = output.outFile && (await ending!)[0].pathKeepingAnswers(output.outFile, results);
  const kept = outFile === output.outFile ? "" : ` (${output.outFile} keeps its complete, answered runs)`;
  const written = await writeOutputs({ ...output, outFile }, results, done.gate.baseline);
  const ghzWritten = await printRun(output, results.runs[0], parsed.config.logFile, done.ghz);
  const say = output.quiet ? null : output.json || output.format !== undefined ? console.error : console.log;
  for (const s of exported ?? []) say?.(terminalSafe(exportLine(s)));
  // stdout stays what a jq reads (--json's object, ghz's report): the threshold lines go to stderr then.
  const print = output.json || (output.format !== undefined && !output.ghzFile) ? console.error : console.log;
  for (const t of checked) print(thresholdLine(t, [run]));
  if (logFailure) console.error(`loadlab attack: ${terminalSafe(logFailure.message)}`);
  const files = written && !output.json
    ? [outFile && `results: ${outFile}${kept}`, output.reportFile && `report:  ${output.reportFile}`]
    : [];
  return await endLoad(results, output, {
    command: "attack",
    gate: done.gate,
    say,
    files: files.filter((line) => line !== undefined),
    written: written && ghzWritten && !logFailure,
    stoppedWith: done.stoppedWith,
  });
}

/** Prints the summary, the `--json` object or ghz's report; false when ghz's report file was not written. */
async function printRun(
  output: ParsedAttack["output"],
  shown: RunResult,
  logFile: string | undefined,
  ghz: GhzRun | undefined,
): Promise<boolean> {
  if (output.format !== undefined) {
    const log = logFile === undefined ? "" : await Deno.readTextFile(logFile);
    const report = ghzOutput(shown, output.format, new Date(), log, ghz);
    // ghz's report has no verdict: loadlab's, when it flags the run, goes beside it on stderr.
    const verdict = runVerdict(shown);
    if (!verdict.ok && !output.quiet) {
      console.error(`loadlab attack: verdict: ${terminalSafe(verdict.label)}`);
    }
    const late = lateLine(shown);
    if (late !== null && !output.quiet) console.error(`loadlab attack: ${late}`);
    // ghz's CSV and details end with their last row's newline, which console.log adds.
    if (output.ghzFile === undefined) console.log(report.endsWith("\n") ? report.slice(0, -1) : report);
    else {
      const failed = await writeTextAtomic(output.ghzFile, report).then(() => null, (err: Error) => err);
      if (failed) {
        console.error(`loadlab attack: cannot write ${output.ghzFile}: ${withWriteFix(failed.message)}`);
        return false;
      }
    }
  } else if (output.json) console.log(JSON.stringify(jsonOutput(shown)));
  else if (!output.quiet) {
    // Where a reader finds the endpoints the terminal's table leaves out.
    const everyOne = output.reportFile ??
      (output.outFile ? `${output.outFile} (runs[].endpoints)` : undefined) ??
      "--report FILE";
    const { renderSummary } = await import("../../report/terminal/summary.ts");
    console.log(renderSummary(shown, { color: Deno.stdout.isTerminal() && !Deno.noColor, everyOne }));
  }
  return true;
}

/** What qualifies ghz's latency fields (from each call's actual start) when calls started late. */
function lateLine(run: RunResult): string | null {
  const [sent, intended, waited] = [run.uncorrectedLatencyMs, run.latencyMs, run.serverBoundSends ?? 0];
  const late = run.lateSends + waited;
  if (late === 0 || sent === null || run.requests === 0) return null;
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  return `the schedule ran late: ${late} calls started after their intended time (${waited} waiting for a ` +
    `call in flight to end), ${ms(intended.mean - sent.mean)} late on average; ghz's fields time each call ` +
    `from its actual start (average ${ms(sent.mean)}), loadlab's latency from the intended send (average ` +
    `${ms(intended.mean)}, p99 ${ms(intended.p99)}: results.json's latencyMs, the report)`;
}

/** The `--json` object: the run as results.json holds it, with its verdict and what it was asked to send. */
function jsonOutput(run: RunResult) {
  return { ...run, latencyMs: sampledLatency(run), verdict: runVerdict(run), sends: sendFacts(run) };
}

/** Writes results.json and report.html when asked; false (after saying why) when one could not be written. */
async function writeOutputs(
  output: ParsedAttack["output"],
  results: ResultsFile,
  baseline: ResultsFile | undefined,
): Promise<boolean> {
  const keepSecrets = output.keepSecrets;
  const [{ writeResultsFile }] = await ending!;
  try {
    if (output.outFile) await writeResultsFile(output.outFile, results, { keepSecrets });
    if (output.reportFile) {
      await (await import("../../report/html/render.ts")).writeReport(output.reportFile, results, {
        keepSecrets,
        compare: baseline,
        failOn: output.failOn,
      });
    }
    return true;
  } catch (err) {
    console.error(`loadlab attack: cannot write the results: ${withWriteFix((err as Error).message)}`);
    return false;
  }
}
