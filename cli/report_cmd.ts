/**
 * @module
 * Commands over saved results: `loadlab report results.json ...` writes their report; `loadlab merge
 * shard-*.json` makes the shards of one segment set (`--segment i/N`) one results file of the whole load;
 * `loadlab gate results.json --baseline ...` judges a saved run by the gate's rules, with no new load.
 */
import { defined } from "../validation/defined.ts";
import { basename } from "node:path";
import { loadResultsFile, writeResultsFile } from "../results/io.ts";
import { outputClobbersInput, OutputError } from "../system/output_file.ts";
import type { ResultsFile, RunResult } from "../results/mod.ts";
import { mergeResults } from "../report/merge_files.ts";
import { writeReport } from "../report/html/render.ts";
import { flag, type FlagTable, helpOf } from "./argv.ts";
import { readFlags } from "./flag_values.ts";
import { UsageError } from "./usage_error.ts";
import { EXIT } from "./exit_codes.ts";
import { runCommand } from "./command_errors.ts";
import { redactResults } from "../results/redact_results.ts";
import { mergeShardFiles } from "../results/merge/shards.ts";
import { analyze } from "../results/conclude/analysis.ts";
import { phaseStats } from "../results/interval_stats.ts";
import { thresholdLine } from "../results/thresholds/text.ts";
import { modelFactsOf } from "../results/load_models.ts";
import { BASELINE_FLAGS, loadBaseline, readGate } from "./baseline_flags.ts";
import { CI_FLAGS, endLoad, resultsArgs } from "./ci_outputs.ts";
import { checkSelectors } from "../results/thresholds/selector.ts";
import { STRICT_FLAG } from "./exit_codes.ts";

const REPORT_TABLE: FlagTable = [
  flag("-o, --output <file>", { example: "report.html" }, ["where to write the page (default: report.html)"]),
  flag("--compare <file>", { example: "baseline.json" }, [
    "a baseline results.json: adds change in req/s, p50, p99 and success per run",
    "with the same name, and whether each change is beyond noise (not",
    "judged when a side is generator-bound, incomplete, steered, ...)",
  ]),
  flag("-h, --help", {}, ["this text"]),
];

const REPORT_HELP = `loadlab report: rebuild report.html from saved results

Usage: loadlab report results.json [more.json ...] [-o report.html] [--compare baseline.json]

${helpOf(REPORT_TABLE, { flagAt: 2, textAt: 27, shortColumn: true })}

Several results files are shown together; run names that clash get their file's name as a prefix.
The page is self-contained (no network) and safe to share.`;

function parseReportArgs(argv: string[]) {
  const flags = readFlags(argv, REPORT_TABLE, "report", REPORT_HELP, { "--out": "use -o report.html" });
  if (!flags.raw.positionals.length) {
    throw new UsageError("no results file given; e.g. loadlab report results.json -o report.html");
  }
  const args = {
    inputs: flags.raw.positionals,
    output: flags.path("output") ?? "report.html",
    compare: flags.path("compare"),
  };
  const clash = outputClobbersInput(
    [["-o", args.output]],
    [...args.inputs.map((p): [string, string] => ["the input", p]), ["--compare", args.compare]],
  );
  if (clash) throw new UsageError(clash);
  return args;
}

/** Refuses shards of one segment set side by side (merge them first); a lone shard gets a warning. */
function checkNotShards(inputs: string[], files: ResultsFile[]): void {
  const shards = inputs.filter((_, i) => !files[i].shards && files[i].runs.some((r) => r.segment));
  if (shards.length > 1) {
    throw new UsageError(
      `${shards.join(", ")} are shards of a segmented load (--segment); merge them first: ` +
        `loadlab merge ${shards.join(" ")} -o results.json --report report.html`,
    );
  }
  if (shards.length === 1) {
    console.error(
      `loadlab report: warning: ${shards[0]} is one shard of a segmented load, not the whole; ` +
        "merge the shards first (loadlab merge)",
    );
  }
}

/** Runs `loadlab report ...`; returns the exit code (0 written, 2 bad arguments or input, 5 cannot write). */
export function runReportCommand(argv: string[]): Promise<number> {
  return runCommand("report", async () => {
    const args = parseReportArgs(argv);
    const files = [];
    for (const path of args.inputs) {
      files.push({ label: basename(path).replace(/\.json$/i, ""), results: await loadResultsFile(path) });
    }
    const compare = args.compare === undefined ? undefined : await loadResultsFile(args.compare);
    checkNotShards(args.inputs, files.map((f) => f.results));
    const results = mergeResults(files);
    await writeReport(args.output, results, { compare }).catch((err) => {
      const why = `${args.output}: cannot write the report: ${(err as Error).message}`;
      throw new OutputError(why, { cause: err });
    });
    console.log(
      `wrote ${args.output} (${results.runs.length} runs${compare ? pairedText(results, compare) : ""})`,
    );
    return EXIT.ok;
  });
}

const MERGE_TABLE: FlagTable = [
  flag("-o, --output <file>", { example: "results.json" }, [
    "the merged results.json (default: results.json)",
  ]),
  flag("--report <file>", { example: "report.html" }, ["also write the HTML report of the merged results"]),
  flag("--allow-partial", {}, ["merge although segments are missing (the file says which: shards.missing)"]),
  flag("-h, --help", {}, ["this text"]),
];

const MERGE_HELP = `loadlab merge: one results file from the shards of a segmented load

Usage: loadlab merge shard-0.json shard-1.json ... -o results.json [--report report.html]

${helpOf(MERGE_TABLE, { flagAt: 2, textAt: 27, shortColumn: true })}

Each shard is the results.json of one 'loadlab attack --segment I/N' (or 'run --segment I/N'). Latency
histograms are added exactly (the whole run's and every interval's), counters summed, intervals lined up
by start time; thresholds the shards recorded as pending are evaluated on the merged load. Shards of
different experiments or loads, two shards of one segment, and missing segments are refused by name.
See docs/scale-out.md.`;

function parseMergeArgs(argv: string[]) {
  const flags = readFlags(argv, MERGE_TABLE, "merge", MERGE_HELP, { "--out": "use -o results.json" });
  if (!flags.raw.positionals.length) {
    throw new UsageError("no shard files given; e.g. loadlab merge shard-*.json -o results.json");
  }
  const args = {
    inputs: flags.raw.positionals,
    output: flags.path("output") ?? "results.json",
    report: flags.path("report"),
    allowPartial: flags.has("allow-partial"),
  };
  const clash = outputClobbersInput(
    [["-o", args.output], ["--report", args.report]],
    args.inputs.map((p): [string, string] => ["the shard", p]),
  );
  if (clash) throw new UsageError(clash);
  return args;
}

/** Phases and analysis of the whole load, from the merged runs. */
function finishMerged(results: ResultsFile): ResultsFile {
  const runs = results.runs.map(withPhases);
  const analysis = results.analysis && analyze(runs, { baseline: results.experiment.baseline });
  return { ...results, runs, ...defined({ analysis }) };
}

function withPhases(run: RunResult): RunResult {
  const phases = run.config.phases as Array<{ name?: string; durationMs: number }> | undefined;
  if (modelFactsOf(run.model)?.durationIn !== "phases" || !Array.isArray(phases)) return run;
  return { ...run, phases: phaseStats(run, phases) };
}

export function runMergeCommand(argv: string[]): Promise<number> {
  return runCommand("merge", async () => {
    const args = parseMergeArgs(argv);
    const files = [];
    // Redacted before merging, so a shard written with --no-redact still merges with redacted ones.
    for (const file of args.inputs) files.push({ file, results: redactResults(await loadResultsFile(file)) });
    const merged = finishMerged(mergeShardFiles(files, { allowPartial: args.allowPartial }));
    try {
      await writeResultsFile(args.output, merged);
      if (args.report) await writeReport(args.report, merged);
    } catch (err) {
      throw new OutputError(`cannot write the output: ${(err as Error).message}`, { cause: err });
    }
    return summarize(args, merged);
  });
}

/** Prints what was merged and the thresholds; the exit code they give. */
function summarize(args: ReturnType<typeof parseMergeArgs>, merged: ResultsFile): number {
  const shards = merged.shards!;
  const partial = shards.partial
    ? `, PARTIAL: missing ${shards.missing.map((i) => `${i}/${shards.count}`)}`
    : "";
  console.log(
    `merged ${shards.shards.length} of ${shards.count} shards from ${shards.hosts.length} host(s)${partial}: ` +
      merged.runs.map((r) => `${r.name} ${r.requests} requests`).join(", ") + ` -> ${args.output}`,
  );
  for (const g of merged.thresholds) console.log(thresholdLine(g, merged.runs));
  return merged.thresholds.every((g) => g.ok) ? EXIT.ok : EXIT.thresholdFailed;
}

/** How many runs the baseline pairs (by name, as the page does): none is said, naming the baseline's. */
function pairedText(results: ResultsFile, baseline: ResultsFile): string {
  const names = new Set(baseline.runs.map((r) => r.name));
  const paired = results.runs.filter((r) => names.has(r.name)).length;
  if (paired > 0) return `, ${paired} compared with the baseline's run of the same name`;
  const theirs = [...names].slice(0, 5).join(", ") || "none";
  return `; no run compared: the baseline has no run of their names (its runs: ${theirs})`;
}

const GATE_TABLE: FlagTable = [
  ...BASELINE_FLAGS,
  ...CI_FLAGS,
  STRICT_FLAG,
  flag("-h, --help", {}, ["this text"]),
];

const GATE_HELP = `loadlab gate: judge a saved results.json against a baseline, with no new load

Usage: loadlab gate results.json --baseline main/results.json --fail-on "p99 +10%" [--junit junit.xml]

${helpOf(GATE_TABLE, { flagAt: 2, textAt: 27, shortColumn: true })}

The verdicts, rules and exit codes are those of 'attack --baseline' (7 a rule fired, 8 not judged);
the saved run's own thresholds are not judged again. Both files may be a folder, a zip or a URL.`;

/** Runs `loadlab gate ...`: the gate of `run` and `attack` over a results file already written. */
export function runGateCommand(argv: string[]): Promise<number> {
  return runCommand("gate", async () => {
    const flags = readFlags(argv, GATE_TABLE, "gate", GATE_HELP);
    const [input, ...more] = flags.raw.positionals;
    if (input === undefined || more.length || !flags.has("baseline")) {
      throw new UsageError(
        `give one results file and a baseline; e.g. loadlab gate out/results.json --baseline main/results.json`,
      );
    }
    const args = resultsArgs(flags);
    // With no rule every change passes: a CI step reading 0 there would pass a slower build unseen.
    if (!args.failOn?.length) {
      throw new UsageError(
        `no --fail-on rule: a gate with none passes any change; give one, e.g. --fail-on "p99 +10%" ` +
          `(loadlab report ${input} --compare BASELINE shows the comparison alone)`,
      );
    }
    const gate = await readGate(args);
    const results = { ...await loadBaseline(input), thresholds: [] };
    // A selector no endpoint of either file has is a typo: refused, as `attack` refuses it before its load.
    const named = [...results.runs, ...gate.baseline!.runs].flatMap((r) => r.endpoints ?? [])
      .flatMap((e) => [e, { ...e, name: e.name.replace(/\?.*/, "") }]);
    const endpoints = [...new Map(named.map((e) => [e.name, e])).values()];
    if (endpoints.length) checkSelectors(gate.failOn.map((f) => ({ ...f, flag: "--fail-on" })), endpoints);
    const end = { command: "gate", gate, say: console.log, files: [], written: true, stoppedWith: null };
    return await endLoad(results, args, end);
  });
}
