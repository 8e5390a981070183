/**
 * @module
 * `loadlab report results.json ... -o report.html [--compare base.json]`: the report from saved results.
 */
import { basename } from "node:path";
import { loadResultsFile } from "../results/io.ts";
import { OutputError } from "../results/output_error.ts";
import type { ResultsFile } from "../results/mod.ts";
import { mergeResults } from "../report/merge_files.ts";
import { outputClobbersInput } from "../system/output_file.ts";
import { writeReport } from "../report/write.ts";
import { flag, flagsOf, type FlagTable, helpOf, tokenize } from "./argv.ts";
import { FlagValues } from "./flag_values.ts";
import { HelpRequested, UsageError } from "./usage_error.ts";
import { EXIT } from "./exit_codes.ts";
import { runCommand } from "./command_errors.ts";

const REPORT_TABLE: FlagTable = [
  flag("-o, --output <file>", { example: "report.html" }, ["where to write the page (default: report.html)"]),
  flag("--compare <file>", { example: "baseline.json" }, [
    "a baseline results.json: adds change in req/s, p50, p99 and success per run",
    "with the same name, and whether each change is beyond noise (not",
    "judged when a side is generator-bound, incomplete, steered, ...)",
  ]),
  flag("-h, --help", {}, ["this text"]),
];

const REPORT_FLAGS = flagsOf(REPORT_TABLE);

const REPORT_HELP = `loadlab report: rebuild report.html from saved results

Usage: loadlab report results.json [more.json ...] [-o report.html] [--compare baseline.json]

${helpOf(REPORT_TABLE, { flagAt: 2, textAt: 27, shortColumn: true })}

Several results files are shown together; run names that clash get their file's name as a prefix.
The page is self-contained (no network) and safe to share.`;

interface ReportArgs {
  inputs: string[];
  output: string;
  compare?: string;
}

function parseReportArgs(argv: string[]): ReportArgs {
  const raw = tokenize(argv, REPORT_FLAGS, { "--out": "use -o report.html" }, "report");
  const flags = new FlagValues(raw, REPORT_FLAGS);
  if (raw.values.has("help")) throw new HelpRequested(REPORT_HELP);
  if (!raw.positionals.length) {
    throw new UsageError("no results file given; e.g. loadlab report results.json -o report.html");
  }
  const args = {
    inputs: raw.positionals,
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
      // Exit 5, output not writable (README: exit codes); 1 means only a failed threshold.
      throw new OutputError(`${args.output}: cannot write the report: ${(err as Error).message}`, {
        cause: err,
      });
    });
    console.log(`wrote ${args.output} (${results.runs.length} runs${compare ? ", with comparison" : ""})`);
    return EXIT.ok;
  });
}
