/**
 * @module
 * `loadlab version` (also `--version`, `-V`): loadlab's version and the Deno and V8 it runs on.
 */
import { EXIT } from "./exit_codes.ts";
import denoJson from "../deno.json" with { type: "json" };

/** Prints the versions; exit 2 when given any argument. */
export function runVersionCommand(args: string[]): number {
  if (args.length > 0) {
    console.error(`loadlab version: takes no arguments (found ${args.join(" ")}); e.g. loadlab version`);
    return EXIT.badInput;
  }
  console.log(`loadlab ${denoJson.version} (deno ${Deno.version.deno}, v8 ${Deno.version.v8})`);
  return EXIT.ok;
}
