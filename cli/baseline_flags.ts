/**
 * @module
 * `--baseline FILE|DIR` and `--fail-on "p99 +10%"` of `run` and `attack`, and the gate's verdict table.
 */
import { MAX_RESULTS_FILE_BYTES, ResultsFileError } from "../results/io.ts";
import { FileReadError, readFileCapped } from "../system/read_capped.ts";
import { redactText } from "../results/redact.ts";
import type { ResultsFile } from "../results/mod.ts";
import type { GateResult } from "../results/baseline_gate.ts";
import { type FailOn, parseFailOn } from "../results/fail_on.ts";
import { METRIC_UNITS, verdictText } from "../report/terminal/baseline_gate.ts";
import { flag, type FlagSpec } from "./argv.ts";
import type { FlagValues } from "./flag_values.ts";
import { UsageError } from "./usage_error.ts";
import { boxTable } from "../report/terminal/tables.ts";
import { baselineFromBytes, isBaselineUrl, loadBaselineUrl } from "./baseline_url.ts";
import { EXIT } from "./exit_codes.ts";

export const BASELINE_FLAGS: FlagSpec[] = [
  flag("--baseline <path>", { example: "main/results.json" }, [
    "compare with a saved results.json (a dir: its results.json): per",
    "run and metric better / same (within noise) / worse, with its noise interval; <path>",
    "may be an http(s) URL giving JSON or a zip holding it (a GitHub artifact;",
    "GITHUB_TOKEN is sent to api.github.com/*.githubusercontent.com only)",
  ]),
  flag("--fail-on <rule>", { repeatable: true, example: "p99 +10%" }, [
    "with --baseline: exit 7 when a change is beyond noise AND past the",
    'rule, e.g. "p99 +10%", "rps -5%", "success -0.1pp" (repeatable); exit 8 when a',
    "rule checked no run (nothing paired with the baseline, or only flagged runs);",
    'per endpoint: "p99{name:GET /json} +10%" (its latency noise needs repeats)',
  ]),
];

/** What the gate was asked to do: the baseline's path and the parsed rules. */
export interface BaselineArgs {
  baselinePath?: string;
  failOn?: FailOn[];
}

/** Reads the two flags (`run` checks them with the file's `compareWith:`/`failOn:`, see `gateArgs`). */
export function baselineArgs(flags: FlagValues): BaselineArgs {
  const baselinePath = flags.path("baseline");
  const failOn = flags.all("fail-on").map(parseFailOn);
  return { ...(baselinePath === undefined ? {} : { baselinePath }), ...(failOn.length ? { failOn } : {}) };
}

/** The gate's baseline path and rules: the flags, else the experiment file's keys (`run` only). */
export function gateArgs(args: BaselineArgs, file: { compareWith?: string; failOn?: string[] } = {}) {
  const baselinePath = args.baselinePath ?? file.compareWith;
  const failOn = args.failOn ?? (file.failOn ?? []).map(parseFailOn);
  if (failOn.length && baselinePath === undefined) {
    throw new UsageError(
      `--fail-on compares with a baseline: give --baseline main/results.json (or compareWith: in the file)`,
    );
  }
  return { baselinePath, failOn };
}

/** Loads the baseline (a folder, a results.json, a zip or an http(s) URL); throws `ResultsFileError`. */
export async function loadBaseline(path: string): Promise<ResultsFile> {
  if (isBaselineUrl(path)) return await loadBaselineUrl(path);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(path);
  if (scheme) {
    throw new ResultsFileError(
      `${redactText(path)}: only http(s) URLs are fetched, not ${
        scheme[1]
      }:; give https://... or the file's path`,
    );
  }
  let file = path;
  try {
    if (Deno.statSync(path).isDirectory) file = `${path.replace(/\/+$/, "")}/results.json`;
  } catch {
    // Not there: the read below says so with the path.
  }
  let bytes: Uint8Array;
  try {
    bytes = readFileCapped(file, MAX_RESULTS_FILE_BYTES);
  } catch (err) {
    if (!(err instanceof FileReadError)) throw err;
    throw new ResultsFileError(
      `${file}: cannot read: ${err.reason}; give a results.json written by loadlab (or a zip holding one)`,
      { cause: err },
    );
  }
  return baselineFromBytes(
    bytes,
    MAX_RESULTS_FILE_BYTES,
    (message, cause) => new ResultsFileError(`${file}: ${message}`, { cause }),
  );
}

/** The gate's verdicts as a table for the terminal, then one line on its outcome. */
export function gateTable(gate: GateResult): string {
  const rows = [["vs baseline", "metric", "baseline", "this", "verdict"]];
  for (const g of gate.groups) {
    for (const m of g.metrics) {
      rows.push([
        g.key,
        `${m.metric} ${METRIC_UNITS[m.metric]}`,
        String(m.baseline),
        String(m.current),
        verdictText(m, g, gate),
      ]);
    }
  }
  const lines = gate.groups.length
    ? [boxTable(rows)]
    : ["no run of this experiment has a run of the same name in the baseline"];
  lines.push(...pairingLines(gate), gateOutcome(gate));
  return lines.join("\n");
}

/** Which runs paired with the baseline and which did not, one line per kind (none when empty). */
function pairingLines(gate: GateResult): string[] {
  const line = (label: string, keys: string[]) => keys.length ? [`${label}: ${keys.join(", ")}`] : [];
  return [
    ...line(
      "paired",
      gate.groups.filter((g) => !g.flagged).map((g) => `${g.key} (${g.baselineRuns}+${g.currentRuns})`),
    ),
    ...line("paired but flagged", gate.groups.filter((g) => g.flagged).map((g) => `${g.key} (${g.flagged})`)),
    ...line("not in the baseline", gate.unpaired),
    ...line("only in the baseline", gate.baselineOnly),
    ...line("left out, stopped early", gate.leftOut),
  ];
}

/** The gate's outcome: FAILED (exit 7), NOT JUDGED (exit 8) with each rule's reason, or passed. */
function gateOutcome(gate: GateResult): string {
  if (gate.failed) return "baseline gate: FAILED (exit 7)";
  if (gate.unjudged.length) {
    const why = gate.unjudged.map((u) => `"${u.rule}" checked no run: ${u.reason}`).join("; ");
    return `baseline gate: NOT JUDGED (exit ${EXIT.baselineUnjudged}): ${why}`;
  }
  return "baseline gate: no --fail-on rule fired";
}
