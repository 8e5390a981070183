/**
 * @module
 * `loadlab merge shard-*.json -o results.json [--report report.html] [--allow-partial]`: the shards of one
 * segment set (`--segment i/N` runs on several machines) become one results file of the whole load
 * (results/merge/shards.ts: exact HDR sums, refusals named).
 */
import { loadResultsFile, writeResultsFile } from "../results/io.ts";
import { OutputError } from "../results/output_error.ts";
import { redactResults } from "../results/redact_results.ts";
import { outputClobbersInput } from "../system/output_file.ts";
import type { ResultsFile, RunResult } from "../results/mod.ts";
import { mergeShardFiles } from "../results/merge/shards.ts";
import { analyze } from "../results/conclude/analysis.ts";
import { phaseStats } from "../results/interval_stats.ts";
import { writeReport } from "../report/write.ts";
import { flag, flagsOf, type FlagTable, helpOf, tokenize } from "./argv.ts";
import { FlagValues } from "./flag_values.ts";
import { HelpRequested, UsageError } from "./usage_error.ts";
import { runCommand } from "./command_errors.ts";
import { EXIT } from "./exit_codes.ts";
import { thresholdLine } from "../results/thresholds/text.ts";
import { modelFactsOf } from "../results/load_models.ts";

const MERGE_TABLE: FlagTable = [
  flag("-o, --output <file>", { example: "results.json" }, [
    "the merged results.json (default: results.json)",
  ]),
  flag("--report <file>", { example: "report.html" }, ["also write the HTML report of the merged results"]),
  flag("--allow-partial", {}, ["merge although segments are missing (the file says which: shards.missing)"]),
  flag("-h, --help", {}, ["this text"]),
];

const MERGE_FLAGS = flagsOf(MERGE_TABLE);

const MERGE_HELP = `loadlab merge: one results file from the shards of a segmented load

Usage: loadlab merge shard-0.json shard-1.json ... -o results.json [--report report.html]

${helpOf(MERGE_TABLE, { flagAt: 2, textAt: 27, shortColumn: true })}

Each shard is the results.json of one 'loadlab attack --segment I/N' (or 'run --segment I/N'). Latency
histograms are added exactly (the whole run's and every interval's), counters summed, intervals lined up
by start time; thresholds the shards recorded as pending are evaluated on the merged load. Shards of
different experiments or loads, two shards of one segment, and missing segments are refused by name.
See docs/scale-out.md.`;

interface MergeArgs {
  inputs: string[];
  output: string;
  report?: string;
  allowPartial: boolean;
}

function parseMergeArgs(argv: string[]): MergeArgs {
  const raw = tokenize(argv, MERGE_FLAGS, { "--out": "use -o results.json" }, "merge");
  const flags = new FlagValues(raw, MERGE_FLAGS);
  if (raw.values.has("help")) throw new HelpRequested(MERGE_HELP);
  if (!raw.positionals.length) {
    throw new UsageError("no shard files given; e.g. loadlab merge shard-*.json -o results.json");
  }
  const args = {
    inputs: raw.positionals,
    output: flags.path("output") ?? "results.json",
    report: flags.path("report"),
    allowPartial: raw.values.has("allow-partial"),
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
  const analysis = results.analysis === undefined
    ? {}
    : { analysis: analyze(runs, { baseline: results.experiment.baseline }) };
  return { ...results, runs, ...analysis };
}

function withPhases(run: RunResult): RunResult {
  const phases = run.config.phases as Array<{ name?: string; durationMs: number }> | undefined;
  if (modelFactsOf(run.model)?.durationIn !== "phases" || !Array.isArray(phases)) return run;
  const spans = phases.map((p, i) => ({ name: p.name ?? `phase ${i + 1}`, durationMs: p.durationMs }));
  return { ...run, phases: phaseStats(run, spans) };
}

/** Runs `loadlab merge ...`; returns the exit code. */
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
function summarize(args: MergeArgs, merged: ResultsFile): number {
  const shards = merged.shards!;
  const partial = shards.partial
    ? `, PARTIAL: missing ${shards.missing.map((i) => `${i}/${shards.count}`)}`
    : "";
  console.log(
    `merged ${shards.shards.length} of ${shards.count} shards from ${shards.hosts.length} host(s)${partial}: ` +
      merged.runs.map((r) => `${r.name} ${r.requests} requests`).join(", ") + ` -> ${args.output}`,
  );
  for (const g of merged.thresholds) {
    console.log(`${thresholdLine(g, merged.runs)}`);
  }
  return merged.thresholds.every((g) => g.ok) ? EXIT.ok : EXIT.thresholdFailed;
}
