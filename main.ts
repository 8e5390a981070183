/**
 * @module
 * The loadlab command line: picks the command and hands the rest of the arguments to its `cli/` module;
 * nothing else lives here. Commands are imported on demand (string-literal dynamic imports stay in the
 * module graph for `deno compile`), so a command loads only the modules it uses: `version` starts no
 * target code, `attack` no experiment planning. Every command prints through a guarded console: a stdout
 * that fails ends none of them (system/console_guard.ts).
 */
import { guardPrinting } from "./system/console_guard.ts";

/** A command's function over the arguments after its name, loaded when the command runs. */
type Command = () => Promise<(argv: string[]) => number | Promise<number>>;

/** Every command and its other spellings, each loading only its own module. */
const COMMANDS = new Map<string | undefined, Command>([
  ["run", async () => (await import("./cli/run/command.ts")).runRunCommand],
  ["presets", async () => (await import("./cli/presets_cmd.ts")).runPresetsCommand],
  ["attack", async () => (await import("./cli/attack/command.ts")).runAttackCommand],
  ["ghz", async () => (await import("./cli/ghz/command.ts")).runGhzCommand],
  ["serve", async () => (await import("./cli/serve_cmd.ts")).runServeCommand],
  ["report", async () => (await import("./cli/report_cmd.ts")).runReportCommand],
  ["merge", async () => (await import("./cli/report_cmd.ts")).runMergeCommand],
  ["demo", async () => (await import("./cli/run/command.ts")).runDemoCommand],
  ["site", async () => (await import("./cli/site_cmd.ts")).runSiteCommand],
  ["init", async () => (await import("./cli/init_cmd.ts")).runInitCommand],
  ["steer", async () => (await import("./cli/steer_cmd.ts")).runSteerCommand],
  ["schema", async () => (await import("./cli/schema_cmd.ts")).runSchemaCommand],
  ["convert", async () => (await import("./cli/convert_cmd.ts")).runConvertCommand],
  // Hidden: a target process of a compiled binary (see cli/target_child_cmd.ts).
  ["__target", async () => (await import("./cli/target_child_cmd.ts")).runTargetChildCommand],
  ...["version", "--version", "-V"].map((name): [string, Command] => [
    name,
    async () => (await import("./cli/help_cmd.ts")).runVersionCommand,
  ]),
  ...[undefined, "help", "-h", "--help"].map((name): [string | undefined, Command] => [
    name,
    async () => (await import("./cli/help_cmd.ts")).runHelpCommand,
  ]),
]);

export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  // First, so a load worker's isolate loads while the command's modules do.
  if (command === "attack" || command === "ghz" || command === "run") {
    (await import("./cli/early_start.ts")).startEarly(command, rest);
  }
  const load = COMMANDS.get(command);
  if (load !== undefined) return (await load())(rest);
  console.error(
    `loadlab: unknown command "${command}"; use run, init, presets, attack, ghz, steer, serve, report, merge, site, demo, schema, convert or version (see --help)`,
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
