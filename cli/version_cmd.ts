/**
 * @module
 * `loadlab version` (also `--version`, `-V`): loadlab's version and the Deno and V8 it runs on.
 */
import { EXIT } from "./exit_codes.ts";
import { runCommand } from "./command_errors.ts";
import { UsageError } from "./usage_error.ts";
import denoJson from "../deno.json" with { type: "json" };

/** Prints the versions; exit 2 when given any argument. */
export function runVersionCommand(args: string[]): Promise<number> {
  return runCommand("version", () => {
    if (args.length > 0) {
      throw new UsageError(`takes no arguments (found ${args.join(" ")}); e.g. loadlab version`);
    }
    console.log(`loadlab ${denoJson.version} (deno ${Deno.version.deno}, v8 ${Deno.version.v8})`);
    return EXIT.ok;
  });
}
