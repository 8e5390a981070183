/**
 * @module
 * Where and how `loadlab attack` shows its results: every flag that is not part of the load itself.
 */
import { defined } from "../../validation/defined.ts";
import { ciFilesToProbe, type ResultsArgs, resultsArgs } from "../ci_outputs.ts";
import type { AttackConfig } from "../../runner/config.ts";
import { outputClobbersInput } from "../../system/output_file.ts";
import { statOrNull } from "../../system/path_lookup.ts";
import { DASH_PATH, type FlagValues } from "../flag_values.ts";
import { UsageError } from "../usage_error.ts";
import { parseMetricsOuts } from "../metrics_out/out_flags.ts";
import { isMetricsOut, type MetricsOutput } from "../../results/export/metrics_output.ts";
import { GHZ_FORMATS, type GhzFormat } from "../../results/export/ghz/report.ts";

/** Each field is the flag of its name (`outFile` `-o`); `format` is `-O`, ghz's report, not results.json. */
export interface AttackOutputOptions extends ResultsArgs {
  json: boolean;
  outFile?: string;
  format?: GhzFormat;
  ghzFile?: string;
  reportFile?: string;
  quiet: boolean;
  noLive: boolean;
  metricsOut?: MetricsOutput[];
  /** Every file the run writes, as `[flag, path]`, for the write probe before the load. */
  files: Array<[string, string | undefined]>;
}

export function outputOf(flags: FlagValues, config: AttackConfig): AttackOutputOptions {
  const format = formatOf(flags, config);
  const { outFile: out, metricsOut } = outValues(flags);
  // With -O, -o is where ghz writes its report (ghz's -o): results.json is not written then.
  const outFile = format === undefined ? out : undefined;
  const ghzFile = format === undefined ? undefined : out;
  const reportFile = flags.path("report");
  const results = resultsArgs(flags);
  const files: AttackOutputOptions["files"] = [
    [flags.typed("out"), outFile ?? ghzFile],
    ["--report", reportFile],
    ["--log", config.logFile],
    ...ciFilesToProbe(results),
  ];
  const clash = outputClobbersInput(files, [
    ["--body-file", flags.path("body-file")],
    ["--data-file", flags.path("data-file")],
  ]);
  if (clash) throw new UsageError(clash);
  if (config.logFile !== undefined && statOrNull(config.logFile)?.isFifo) {
    // Created with its header, then opened to append by every worker: the FIFO's reader sees its end at
    // the first close, and with no reader the first open waits for ever.
    throw new UsageError(
      `--log ${config.logFile}: is a FIFO, which the request log cannot be written to (it is opened and ` +
        `closed more than once); give a regular file`,
    );
  }
  return {
    json: flags.has("json"),
    outFile,
    ...defined({ format, ghzFile, metricsOut: metricsOut.length > 0 ? metricsOut : undefined }),
    reportFile,
    quiet: flags.has("quiet"),
    noLive: flags.has("no-live"),
    ...results,
    files,
  };
}

/** `-O`/`--format`: ghz's summary, json, pretty or csv report of a gRPC run; undefined without it. */
function formatOf(flags: FlagValues, config: AttackConfig): GhzFormat | undefined {
  if (!flags.has("format")) return undefined;
  const typed = flags.typed("format");
  if (config.grpc === undefined) {
    throw new UsageError(`${typed} is ghz's report of a gRPC run: give a grpc:// URL, or use --json`);
  }
  if (flags.has("json")) throw new UsageError(`${typed} and --json both choose what stdout holds; give one`);
  return flags.choice("format", GHZ_FORMATS);
}

/** `-o`/`--out` values: `KIND=URL` ones are metrics outputs, the last other one the results file. */
function outValues(flags: FlagValues): { outFile?: string; metricsOut: MetricsOutput[] } {
  const values = flags.all("out");
  const files = values.filter((v) => !isMetricsOut(v));
  const metrics = values.filter(isMetricsOut);
  const typed = flags.typed("out");
  if (files.includes("")) throw new UsageError(`${typed} "": empty path, e.g. ${typed} results.json`);
  if (files.includes("-")) throw new UsageError(`${typed} "-": ${DASH_PATH}, e.g. ${typed} results.json`);
  return { outFile: files.at(-1), metricsOut: parseMetricsOuts(typed, metrics) };
}
