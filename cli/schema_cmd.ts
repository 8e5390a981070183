/**
 * @module
 * `loadlab schema`: the JSON Schema of experiment files, generated from scenarios/schema/experiment.ts.
 */
import { z } from "zod";
import { experimentSchema } from "../scenarios/schema/experiment.ts";
import { EXIT } from "./exit_codes.ts";
import { runCommand } from "./command_errors.ts";
import { noArguments } from "./argv.ts";

const HELP = `Usage: loadlab schema

Prints the JSON Schema of experiment files (docs/EXPERIMENTS.md) to stdout, e.g.
  loadlab schema > loadlab.schema.json
and in a YAML file: # yaml-language-server: $schema=./loadlab.schema.json`;

export function experimentJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(experimentSchema, {
    io: "input",
    // Request bodies in files are strings; anything zod cannot express is left open rather than failing.
    unrepresentable: "any",
    override: (ctx) => {
      // `expected` is the validator's wording for error messages, not a JSON Schema keyword.
      delete (ctx.jsonSchema as Record<string, unknown>).expected;
    },
  });
  const duration = (schema.$defs as Record<string, Record<string, unknown>> | undefined)?.duration;
  // The validator's own check gives the better message; the pattern is for editors.
  if (duration) duration.pattern = "^((\\d+(\\.\\d+)?|\\.\\d+)(ms|s|m|h))+$";
  return {
    ...schema,
    title: "loadlab experiment",
    description:
      "An experiment file of loadlab run (docs/EXPERIMENTS.md). Durations are strings with a unit.",
  };
}

export function runSchemaCommand(args: string[]): Promise<number> {
  return runCommand("schema", () => {
    noArguments(args, "schema", HELP);
    console.log(JSON.stringify(experimentJsonSchema(), null, 2));
    return EXIT.ok;
  });
}
