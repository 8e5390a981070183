/**
 * @module
 * The loadlab command line: picks the command and hands the rest of the arguments to its `cli/` module;
 * nothing else lives here. Commands are imported on demand by their module's URL, not a string literal
 * (`deno run` reads the graph of every literal import before it starts; `deno task compile` includes each
 * module), so a command reads and loads only the modules it uses: `version` starts no target code,
 * `attack` no experiment planning. Every command prints through a guarded console: a stdout
 * that fails ends none of them (system/console_guard.ts).
 */
import { guardPrinting } from "./system/console_guard.ts";

const HELP = new URL("./cli/help_cmd.ts", import.meta.url);

/** Every command and its other spellings: its module and the function that module exports. */
const COMMANDS = new Map<string | undefined, [URL, string]>([
  ["run", [new URL("./cli/run/command.ts", import.meta.url), "runRunCommand"]],
  ["presets", [new URL("./cli/presets_cmd.ts", import.meta.url), "runPresetsCommand"]],
  ["attack", [new URL("./cli/attack/command.ts", import.meta.url), "runAttackCommand"]],
  ["ghz", [new URL("./cli/ghz/command.ts", import.meta.url), "runGhzCommand"]],
  ["serve", [new URL("./cli/serve_cmd.ts", import.meta.url), "runServeCommand"]],
  ["report", [new URL("./cli/report_cmd.ts", import.meta.url), "runReportCommand"]],
  ["merge", [new URL("./cli/report_cmd.ts", import.meta.url), "runMergeCommand"]],
  ["gate", [new URL("./cli/report_cmd.ts", import.meta.url), "runGateCommand"]],
  ["demo", [new URL("./cli/run/command.ts", import.meta.url), "runDemoCommand"]],
  ["site", [new URL("./cli/site_cmd.ts", import.meta.url), "runSiteCommand"]],
  ["init", [new URL("./cli/init_cmd.ts", import.meta.url), "runInitCommand"]],
  ["steer", [new URL("./cli/steer_cmd.ts", import.meta.url), "runSteerCommand"]],
  ["schema", [new URL("./cli/schema_cmd.ts", import.meta.url), "runSchemaCommand"]],
  ["convert", [new URL("./cli/convert_cmd.ts", import.meta.url), "runConvertCommand"]],
  // Hidden: a target process of a compiled binary (targets/child_main.ts).
  ["__target", [new URL("./targets/child_main.ts", import.meta.url), "runTargetChild"]],
  ["version", [HELP, "runVersionCommand"]],
  ["--version", [HELP, "runVersionCommand"]],
  ["-V", [HELP, "runVersionCommand"]],
  [undefined, [HELP, "runHelpCommand"]],
  ["help", [HELP, "runHelpCommand"]],
  ["-h", [HELP, "runHelpCommand"]],
  ["--help", [HELP, "runHelpCommand"]],
]);

export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  // First, so a load worker's isolate loads while the command's modules do.
  if (command === "attack" || command === "ghz" || command === "run") {
    (await import("./cli/early_start.ts")).startEarly(command, rest);
  }
  const found = COMMANDS.get(command);
  if (found !== undefined) return (await import(found[0].href))[found[1]](rest);
  console.error(
    `loadlab: unknown command "${command}"; use run, init, presets, attack, ghz, steer, serve, report, merge, gate, site, demo, schema, convert or version (see --help)`,
  );
  return 2;
}

if (import.meta.main) {
  const stdoutFailed = guardPrinting();
  const code = await main(Deno.args);
  // Imported last: it loads zod, which would otherwise hold back the early worker's start.
  const { EXIT } = await import("./cli/exit_codes.ts");
  Deno.exit(code === EXIT.ok && stdoutFailed() ? EXIT.outputNotWritable : code);
}
