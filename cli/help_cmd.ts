/**
 * @module
 * `loadlab help` (also no command, `-h`, `--help`): the list of commands; `loadlab version` (also
 * `--version`, `-V`): loadlab's version and the Deno and V8 it runs on.
 */
import { EXIT } from "./exit_codes.ts";
import { runCommand } from "./command_errors.ts";
import { noArguments } from "./argv.ts";
import denoJson from "../deno.json" with { type: "json" };

const HELP = `loadlab ${denoJson.version}: HTTP performance experiments in one command

Usage: loadlab <command> [options]

Commands:
  run <file>           run an experiment file or preset:NAME (targets, loads, sweeps, repeats, analysis)
  presets              list the experiments shipped inside loadlab
  attack <url>         load one URL (closed, open-rate, constant-throughput or fixed-count model)
  ghz [flags] host     a ghz command line, run as ghz runs it (docs/GRPC.md)
  steer <url> ...      pause, resume, change the rate or connections of a running load, end a phase, stop
  serve                run the built-in target (or a caching / rate-limiting proxy) until Ctrl-C
  report <files>       rebuild report.html from results.json files, optionally against a baseline
  merge <shards>       one results.json from the shards of a load split with --segment I/N
  gate <file>          judge a saved results.json against --baseline by --fail-on rules (exit 7, 8)
  site [dir]           browse and compare every results.json under dir (default out/); --static OUT
  demo                 run preset:demo: the built-in target under each load model, with a report
  init --script        write a starter session script and its types (docs/SCRIPTS.md)
  schema               print the JSON Schema of experiment files (for editor completion)
  convert k6|locust F  the session a k6 script or locustfile runs as (loadlab run F converts it)
  version              print versions

Run 'loadlab <command> --help' for the options of a command.`;

export function runHelpCommand(): number {
  console.log(HELP);
  return EXIT.ok;
}

/** Prints the versions; exit 2 when given any argument but `--help`, which says what it prints. */
export function runVersionCommand(args: string[]): Promise<number> {
  return runCommand("version", () => {
    noArguments(args, "version", "Usage: loadlab version\n\nPrints loadlab's, Deno's and V8's versions.");
    console.log(`loadlab ${denoJson.version} (deno ${Deno.version.deno}, v8 ${Deno.version.v8})`);
    return EXIT.ok;
  });
}
