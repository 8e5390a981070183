/**
 * @module
 * The flags of the live dashboard, shared by `run`, `demo` and `attack` (cli/dashboard.ts): the table
 * entries, their help lines, and the options they mean. `--dashboard-port`, `--open` and `--host`
 * imply `--dashboard`.
 */
import type { FlagSpec } from "./argv.ts";
import type { FlagValues } from "./flag_values.ts";
import type { ServeOptions } from "./dashboard.ts";

export const DASHBOARD_FLAGS: FlagSpec[] = [
  { long: "dashboard", takesValue: false },
  { long: "dashboard-port", takesValue: true, example: "8700" },
  { long: "open", takesValue: false },
  { long: "host", takesValue: true, example: "127.0.0.1" },
];

const HELP_ROWS: Array<[string, string[]]> = [
  ["--dashboard", [
    "serve a live dashboard on 127.0.0.1 (a free port, printed): the report",
    "page, growing as the runs go (Server-Sent Events); at the end it is",
    "the same page as report.html",
  ]],
  ["--dashboard-port N", ["the dashboard's port (implies --dashboard)"]],
  ["--open", ["open the dashboard in a browser when one is found"]],
  ["--host H", ["listen on H, not 127.0.0.1 (warns: results readable from the network)"]],
];

/** Help lines: flags from column `flagAt`, text from column `textAt`, like the command's other lines. */
export function dashboardHelp(flagAt: number, textAt: number): string {
  return HELP_ROWS.flatMap(([flag, lines]) =>
    lines.map((line, i) => (i === 0 ? " ".repeat(flagAt) + flag : "").padEnd(textAt) + line)
  ).join("\n");
}

/** The dashboard's options, or undefined when none of its flags was given. */
export function dashboardOptions(flags: FlagValues): ServeOptions | undefined {
  if (!DASHBOARD_FLAGS.some((spec) => flags.has(spec.long))) return undefined;
  return {
    host: flags.nonEmpty("host") ?? "127.0.0.1",
    port: flags.wholeNumber("dashboard-port", 0, 65535) ?? 0,
    open: flags.has("open"),
  };
}
