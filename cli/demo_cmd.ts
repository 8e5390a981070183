/**
 * @module
 * `loadlab demo`: `loadlab run preset:demo` into `--out-dir` (default `out/demo`).
 */
import { runRunCommand } from "./run/command.ts";

const DEMO_HELP = `loadlab demo: the built-in target under a short load of each model, with a report

Usage: loadlab demo [--out-dir out/demo] [--quick]

  --out-dir <dir>  where results.json, report.html and target logs go (default out/demo)
  --quick          a shorter demo (about a quarter of the time)
  -h, --help       this help

The same as 'loadlab run preset:demo'; every flag of 'loadlab run' works here too.`;

/** Runs the command; returns the exit code. */
export function runDemoCommand(argv: string[]): Promise<number> {
  return runRunCommand(["preset:demo", ...argv], { command: "demo", help: DEMO_HELP });
}
