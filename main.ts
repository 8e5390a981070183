/**
 * @module
 * The loadlab command line: picks the command and hands the rest of the arguments to its `cli/` module;
 * nothing else lives here. Commands are imported on demand (string-literal dynamic imports stay in the
 * module graph for `deno compile`), so a command loads only the modules it uses: `version` starts no
 * target code, `attack` no experiment planning. Every command prints through a guarded console: a stdout
 * that fails ends none of them (system/console_guard.ts).
 */
import { guardPrinting } from "./system/console_guard.ts";

export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  // First, so a load worker's isolate loads while the command's modules do.
  if (command === "attack" || command === "ghz" || command === "run") {
    (await import("./cli/early_start.ts")).startEarly(command, rest);
  }
  switch (command) {
    case "run":
      return (await import("./cli/run/command.ts")).runRunCommand(rest);
    case "presets":
      return (await import("./cli/presets_cmd.ts")).runPresetsCommand(rest);
    case "attack":
      return (await import("./cli/attack/command.ts")).runAttackCommand(rest);
    case "ghz":
      return (await import("./cli/ghz/command.ts")).runGhzCommand(rest);
    case "serve":
      return (await import("./cli/serve_cmd.ts")).runServeCommand(rest);
    case "report":
      return (await import("./cli/report_cmd.ts")).runReportCommand(rest);
    case "merge":
      return (await import("./cli/report_cmd.ts")).runMergeCommand(rest);
    case "demo":
      return (await import("./cli/run/command.ts")).runDemoCommand(rest);
    case "site":
      return (await import("./cli/site_cmd.ts")).runSiteCommand(rest);
    case "init":
      return (await import("./cli/init_cmd.ts")).runInitCommand(rest);
    case "steer":
      return (await import("./cli/steer_cmd.ts")).runSteerCommand(rest);
    case "schema":
      return (await import("./cli/schema_cmd.ts")).runSchemaCommand(rest);
    case "convert":
      return (await import("./cli/convert_cmd.ts")).runConvertCommand(rest);
    case "__target":
      // Hidden: a target process of a compiled binary (see cli/target_child_cmd.ts).
      return (await import("./cli/target_child_cmd.ts")).runTargetChildCommand(rest);
    case "version":
    case "--version":
    case "-V":
      return (await import("./cli/help_cmd.ts")).runVersionCommand(rest);
    case undefined:
    case "help":
    case "-h":
    case "--help":
      return (await import("./cli/help_cmd.ts")).runHelpCommand();
    default:
      console.error(
        `loadlab: unknown command "${command}"; use run, init, presets, attack, ghz, steer, serve, report, merge, site, demo, schema, convert or version (see --help)`,
      );
      return 2;
  }
}

if (import.meta.main) {
  const stdoutFailed = guardPrinting();
  const code = await main(Deno.args);
  // Imported last: it loads zod, which would otherwise hold back the early worker's start.
  const { EXIT } = await import("./cli/exit_codes.ts");
  Deno.exit(code === EXIT.ok && stdoutFailed() ? EXIT.outputNotWritable : code);
}
