/**
 * @module
 * What `run` and `attack` do alike with a run's results: the CI files' flags, the terminal's secrets guarded,
 * and `endLoad` from results to the gate's table, the CI files, the files' paths and the exit code.
 */
import { defined } from "../validation/defined.ts";
import type { ResultsFile } from "../results/mod.ts";
import { gateAgainstBaseline, type GateResult } from "../results/baseline_gate.ts";
import { keepSecretsShown, knowSecrets, redactShown } from "../results/redact.ts";
import { secretsFoundIn } from "../results/secret_finder.ts";
import { guardConsole } from "../system/console_guard.ts";
import { terminalSafe } from "../validation/terminal_text.ts";
import { type CommandOutcome, exitCodeOf } from "./exit_codes.ts";
import { appendText, OutputError, withWriteFix, writeTextAtomic } from "../system/output_file.ts";
import { biggerBenchPath, renderBenchJson } from "../report/ci/bench_json.ts";
import { flag, type FlagSpec } from "./argv.ts";
import type { FlagValues } from "./flag_values.ts";
import { type BaselineArgs, baselineArgs, type GateAsked, gateTable } from "./baseline_flags.ts";
import { dashboardOptions, type ServeOptions } from "./dashboard/flags.ts";

/** The CI files' flags, one row each for both commands' `--help`. */
export const CI_FLAGS: FlagSpec[] = [
  flag("--summary FILE", { example: "summary.md" }, [
    "write a markdown summary (CI step summaries): the runs, their",
    "verdicts, the thresholds",
  ]),
  flag("--junit FILE", { example: "junit.xml" }, [
    "write JUnit XML: one test case per threshold and --fail-on rule (and with",
    '--strict a "run verdict" case per run, failing when the run is flagged)',
  ]),
  flag("--output-bench FILE", { example: "bench.json" }, [
    "github-action-benchmark JSON: latency to FILE (customSmallerIsBetter),",
    "req/s and success to FILE's .bigger.json (customBiggerIsBetter); with",
    "$GITHUB_STEP_SUMMARY set, a markdown summary is appended there",
  ]),
];

/** What `run` and `attack` read alike: the CI files, `--no-redact`, `--strict`, the gate, the dashboard. */
export interface ResultsArgs extends BaselineArgs {
  summaryFile?: string;
  junitFile?: string;
  benchFile?: string;
  keepSecrets: boolean;
  /** `--strict`: exit 6 for a flagged run, and JUnit gets a failing case for it. */
  strict: boolean;
  dashboard?: ServeOptions;
}

/** The flags of `ResultsArgs`, each field the flag of its name (`benchFile` `--output-bench`). */
export function resultsArgs(flags: FlagValues): ResultsArgs {
  return {
    ...defined({
      summaryFile: flags.path("summary"),
      junitFile: flags.path("junit"),
      benchFile: flags.path("output-bench"),
    }),
    keepSecrets: flags.has("no-redact"),
    strict: flags.has("strict"),
    ...baselineArgs(flags),
    ...dashboardOptions(flags),
  };
}

/** The files named by flags beside the step summary: `[flag, path]` pairs for the pre-load write probe. */
export function ciFilesToProbe(files: ResultsArgs): Array<[string, string | undefined]> {
  return [
    ["--summary", files.summaryFile],
    ["--junit", files.junitFile],
    ["--output-bench", files.benchFile],
    ["--output-bench", files.benchFile && biggerBenchPath(files.benchFile)],
  ];
}

/** From here on the terminal shows no secret found in `sources`, whatever text carries it; none if `keep`. */
export function guardSecrets(keep: boolean, sources: unknown): void {
  if (keep) return keepSecretsShown();
  knowSecrets(secretsFoundIn(sources));
  guardConsole(redactShown);
}

/** How a load command's run ended besides its results, and where its end is said. */
type LoadEnd = Pick<CommandOutcome, "command" | "written" | "stoppedWith" | "k6"> & {
  /** The baseline and rules `readGate` read before the load. */
  gate: GateAsked;
  /** Where the gate's table and the files' lines go; null says neither (`--quiet`). */
  say: ((text: string) => void) | null;
  /** The lines naming the files written (`results: out/results.json`), said last. */
  files: string[];
};

/** The end of a load command: the gate judged and shown, the CI files written, the paths said; exit code. */
export async function endLoad(results: ResultsFile, args: ResultsArgs, end: LoadEnd): Promise<number> {
  const { baseline, failOn } = end.gate;
  const gate = baseline && gateAgainstBaseline(baseline, results, failOn);
  const { runs, thresholds } = results;
  // One order of exit codes: the table's line says the code the command exits with.
  const code = exitCodeOf({ ...end, runs, thresholds, strict: args.strict, gate });
  if (gate) end.say?.(terminalSafe(gateTable(gate, code)));
  await writeCiFiles(end.command, results, args, gate);
  if (end.files.length > 0) end.say?.(end.files.join("\n"));
  return code;
}

/** Writes every CI file asked for, then appends the summary to `$GITHUB_STEP_SUMMARY` when it is set. */
async function writeCiFiles(
  command: string,
  results: ResultsFile,
  files: ResultsArgs,
  gate: GateResult | undefined,
): Promise<void> {
  const step = Deno.env.get("GITHUB_STEP_SUMMARY"), output = Deno.env.get("GITHUB_OUTPUT");
  if (gate && output) await appendOrWarn(command, "GITHUB_OUTPUT", output, gateOutputs(gate));
  if (!files.summaryFile && !files.junitFile && !files.benchFile && !step) return;
  const { renderJunit, renderMarkdownSummary } = await import("../report/ci/summary.ts");
  const summary = renderMarkdownSummary(results, { gate });
  // Each failure names its flag and path: "--junit out/j.xml: cannot write: is a directory".
  const write = (flag: string, path: string, text: string) =>
    writeTextAtomic(path, text).catch((err: Error) => {
      throw new OutputError(`${flag} ${path}: cannot write: ${withWriteFix(err.message)}`, { cause: err });
    });
  if (files.summaryFile) await write("--summary", files.summaryFile, summary);
  if (files.junitFile) {
    await write("--junit", files.junitFile, renderJunit(results, { strict: files.strict, gate }));
  }
  if (files.benchFile) {
    const bench = renderBenchJson(results);
    await write("--output-bench", files.benchFile, bench.smaller);
    await write("--output-bench", biggerBenchPath(files.benchFile), bench.bigger);
  }
  if (step) await appendOrWarn(command, "GITHUB_STEP_SUMMARY", step, summary + "\n");
}

/** Appends to a file CI gave by `variable`; one that cannot be written is a warning, the exit code stays. */
async function appendOrWarn(command: string, variable: string, path: string, text: string): Promise<void> {
  try {
    // Through output_file.ts: a FIFO there with no reader fails after a wait instead of holding the exit.
    await appendText(path, text);
  } catch (err) {
    const why = (err as Error).message;
    console.error(`loadlab ${command}: warning: cannot append to ${variable} (${path}): ${why}`);
  }
}

/** The step outputs of the gate: its outcome, the rules that fired and each verdict's numbers as JSON. */
function gateOutputs(gate: GateResult): string {
  const outcome = gate.failed ? "failed" : gate.unjudged.length ? "not-judged" : "passed";
  const rules = (list: string[]) => [...new Set(list)].map((r) => r.replace(/\s+/g, " ")).join(", ");
  const verdicts = gate.groups.flatMap((g) =>
    g.metrics.map(({ metric, baseline, current, changePct, verdict, failed: fails }) => ({
      ...{ run: g.key, metric, baseline, current, changePct: Number(changePct.toFixed(2)) },
      ...{ verdict: verdict === "unknown" ? "no-verdict" : verdict, fails },
    }))
  );
  return `gate=${outcome}\ngate-failed=${rules(verdicts.flatMap((v) => v.fails))}\n` +
    `gate-not-judged=${rules(gate.unjudged.map((u) => u.rule))}\ngate-verdicts=${JSON.stringify(verdicts)}\n`;
}
