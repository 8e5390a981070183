/**
 * @module
 * `loadlab attack <url>`: parse flags (bad input exits 2 before any load), run one attack with a live
 * line, then print the oha/autocannon-style summary or one JSON object (`--json`), write results.json
 * and report.html when asked, and set the exit code from `--threshold` gates (1 when one fails).
 */
import { HelpRequested, parseAttackArgs, UsageError } from "./attack_args.ts";
import { interruptSignal, liveLine } from "./live.ts";
import { writeReport } from "../report/write.ts";
import { runAttack } from "../runner/attack.ts";
import { ConfigError } from "../runner/config.ts";
import { buildResultsFile, writeResultsFile } from "../results/io.ts";
import { evaluateThresholds, parseThreshold, type Threshold } from "../runner/thresholds.ts";
import { renderSummary } from "../report/text.ts";
import type { ThresholdResult } from "../results/mod.ts";

/** Runs the command; returns the process exit code. */
export async function runAttackCommand(argv: string[]): Promise<number> {
  let parsed;
  let thresholds: Threshold[];
  try {
    parsed = parseAttackArgs(argv);
    thresholds = parsed.thresholds.map(parseThreshold);
  } catch (err) {
    if (err instanceof HelpRequested) {
      console.log(err.text);
      return 0;
    }
    if (err instanceof UsageError || err instanceof ConfigError) {
      console.error(`loadlab attack: ${err.message}`);
      return 2;
    }
    throw err;
  }
  const { config, output } = parsed;
  const live = liveLine(!output.noLive && !output.quiet && !output.json);
  const interrupt = interruptSignal();
  let run;
  try {
    run = await runAttack(config, { onProgress: live.onProgress, signal: interrupt.signal });
  } finally {
    live.done();
    interrupt.dispose();
  }
  const gates = evaluateThresholds(thresholds, [run]);
  const results = buildResultsFile({
    experiment: { name: "attack", source: ["loadlab", "attack", ...argv].join(" ") },
    runs: [run],
    thresholds: gates,
  });
  if (output.outFile) await writeResultsFile(output.outFile, results);
  if (output.reportFile) await writeReport(output.reportFile, results);
  if (output.json) console.log(JSON.stringify(run));
  else if (!output.quiet) {
    console.log(renderSummary(run, { color: Deno.stdout.isTerminal() && !Deno.noColor }));
  }
  printGates(gates, output.json);
  if (!output.json && !output.quiet) {
    if (output.outFile) console.log(`results: ${output.outFile}`);
    if (output.reportFile) console.log(`report:  ${output.reportFile}`);
  }
  return gates.every((g) => g.ok) ? 0 : 1;
}

/** Threshold outcomes go to stderr with --json so stdout stays one JSON object. */
function printGates(gates: ThresholdResult[], toStderr: boolean): void {
  const print = toStderr ? console.error : console.log;
  for (const g of gates) {
    print(`${g.ok ? "PASS" : "FAIL"}  ${g.expression}  (${g.run}: ${Number(g.actual.toFixed(3))})`);
  }
}
