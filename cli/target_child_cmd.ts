/**
 * @module
 * The hidden `loadlab __target <json>` command: one process of a built-in target.
 */
import { EXIT } from "./exit_codes.ts";
import { runTargetChild } from "../targets/child_main.ts";

/** Serves the child its one JSON argument describes until told to stop; returns the exit code (0). */
export async function runTargetChildCommand(args: string[]): Promise<number> {
  await runTargetChild(args[0]);
  return EXIT.ok;
}
