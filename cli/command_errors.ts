/**
 * @module
 * One mapping from what a command throws to what it prints and its exit code (cli/exit_codes.ts).
 */
import { redactShown } from "../results/redact.ts";
import { terminalSafe } from "../validation/terminal_text.ts";
import { EXIT } from "./exit_codes.ts";
import { withWriteFix } from "../system/output_file.ts";
import { HelpRequested, oneLine } from "./usage_error.ts";

/** Errors that are bad input (exit 2, one line), never to be read by CI as a failed threshold. */
const BAD_INPUT = new Set(["UsageError", "ConfigError", "ResultsFileError", "ScriptSetupError", "LoadError"]);
/** Errors of a target that could not start or stopped answering (exit 3). */
const TARGET_FAILED = new Set(["TargetError", "TargetFailedError"]);

/** Runs command `name` and returns its exit code, the errors it throws mapped to theirs. */
export async function runCommand(name: string, fn: () => number | Promise<number>): Promise<number> {
  try {
    return await fn();
  } catch (err) {
    return exitCodeOfThrown(name, err);
  }
}

/** Prints `err` as command `name` reports it and returns the exit code; rethrows what is not mapped. */
function exitCodeOfThrown(name: string, err: unknown): number {
  if (err instanceof HelpRequested) {
    console.log(err.text);
    return EXIT.ok;
  }
  if (!(err instanceof Error)) throw err;
  const line = (text: string) => terminalSafe(redactShown(text));
  if (err.name === "ExperimentError" || err.name === "MergeError") {
    // An experiment's lines already name the file and the field; a merge's, the shard.
    const prefix = err.name === "MergeError" ? `loadlab ${name}: ` : "";
    for (const text of err.message.split("\n")) console.error(prefix + line(text));
    return (err as { exitCode?: number }).exitCode ?? EXIT.badInput;
  }
  if (BAD_INPUT.has(err.name)) {
    console.error(`loadlab ${name}: ${line(oneLine(err.message))}`);
    return (err as { exitCode?: number }).exitCode ?? EXIT.badInput;
  }
  if (err.name === "OutputError" || TARGET_FAILED.has(err.name)) {
    // A target's message may end with the tail of its own log, several lines.
    if (err.name === "OutputError") {
      console.error(`loadlab ${name}: ${line(withWriteFix(err.message))}`);
      return EXIT.outputNotWritable;
    }
    console.error(`loadlab ${name}: ${line(err.message)}`);
    // `run` stopped by a target keeps the runs it finished (scenarios/run/run_plan.ts names their file).
    const kept = (err as { keptIn?: unknown }).keptIn;
    if (typeof kept === "string") console.error(`finished runs are kept in ${line(kept)}`);
    return EXIT.targetFailed;
  }
  throw err;
}
