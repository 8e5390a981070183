/**
 * @module
 * The loadlab command line: picks the command and hands the rest of the arguments to it. Commands are
 * imported on demand (string-literal dynamic imports stay in the module graph for `deno compile`), so
 * `attack` does not load the target's or the report's dependencies.
 */
import denoJson from "./deno.json" with { type: "json" };

const HELP = `loadlab ${denoJson.version}: HTTP performance experiments in one command

Usage: loadlab <command> [options]

Commands:
  run <file>       run an experiment file or preset:NAME (targets, loads, sweeps, repeats, analysis)
  presets          list the experiments shipped inside loadlab
  attack <url>     load one URL (closed, open-rate, constant-throughput or fixed-count model)
  serve            run the built-in target (or a caching / rate-limiting proxy) until Ctrl-C
  report <files>   rebuild report.html from results.json files, optionally against a baseline
  merge <shards>   one results.json from the shards of a load split with --segment I/N
  site [dir]       browse and compare every results.json under dir (default out/); --static OUT
  demo             run preset:demo: the built-in target under each load model, with a report
  schema           print the JSON Schema of experiment files (for editor completion)
  version          print versions

Run 'loadlab <command> --help' for the options of a command.`;

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case "run":
      return (await import("./cli/run_cmd.ts")).runRunCommand(rest);
    case "presets":
      return (await import("./cli/presets_cmd.ts")).runPresetsCommand(rest);
    case "attack":
      return (await import("./cli/attack_cmd.ts")).runAttackCommand(rest);
    case "serve":
      return (await import("./cli/serve_cmd.ts")).runServeCommand(rest);
    case "report":
      return (await import("./cli/report_cmd.ts")).runReportCommand(rest);
    case "merge":
      return (await import("./cli/merge_cmd.ts")).runMergeCommand(rest);
    case "demo":
      return (await import("./cli/demo_cmd.ts")).runDemoCommand(rest);
    case "site":
      return (await import("./cli/site_cmd.ts")).runSiteCommand(rest);
    case "schema":
      return (await import("./cli/schema_cmd.ts")).runSchemaCommand(rest);
    case "__target":
      // Hidden: a target process of a compiled binary (see targets/child_main.ts).
      await (await import("./targets/mod.ts")).runTargetChild(rest[0]);
      return 0;
    case "version":
    case "--version":
    case "-V":
      if (rest.length > 0) {
        console.error(`loadlab version: takes no arguments (found ${rest.join(" ")}); e.g. loadlab version`);
        return 2;
      }
      console.log(`loadlab ${denoJson.version} (deno ${Deno.version.deno}, v8 ${Deno.version.v8})`);
      return 0;
    case undefined:
    case "help":
    case "-h":
    case "--help":
      console.log(HELP);
      return 0;
    default:
      console.error(
        `loadlab: unknown command "${command}"; use run, presets, attack, serve, report, merge, site, demo, schema or version (see --help)`,
      );
      return 2;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
