/**
 * @module
 * The live dashboard's flags, shared by `run`, `demo` and `attack`, their help lines and options.
 */
import type { FlagSpec } from "./argv.ts";
import type { FlagValues } from "./flag_values.ts";
import type { ServeOptions } from "./dashboard.ts";
import { UsageError } from "./usage_error.ts";
import { RunSteering } from "../runner/steering.ts";

export const DASHBOARD_FLAGS: FlagSpec[] = [
  { long: "dashboard", takesValue: false },
  { long: "dashboard-port", takesValue: true, example: "8700" },
  { long: "open", takesValue: false },
  { long: "host", takesValue: true, example: "127.0.0.1" },
  { long: "steer", takesValue: false },
  { long: "no-steer", takesValue: false },
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
  ["--steer", [
    "the dashboard's controls change the run under way: pause/resume, rate",
    "(open models), connections (closed), end the phase, stop; also from a",
    "terminal: loadlab steer URL ACTION (URL and its token are printed).",
    "On by default with --dashboard, except for a run file whose thresholds",
    "gate the result; a steered run is flagged steered (docs/REFERENCE.md)",
  ]],
  ["--no-steer", ["a dashboard that only watches: no controls, no control endpoint"]],
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
  if (flags.has("steer") && flags.has("no-steer")) {
    throw new UsageError("use --steer or --no-steer, not both");
  }
  return {
    host: flags.nonEmpty("host") ?? "127.0.0.1",
    port: flags.wholeNumber("dashboard-port", 0, 65535) ?? 0,
    open: flags.has("open"),
    ...(flags.has("steer") ? { steer: true } : flags.has("no-steer") ? { steer: false } : {}),
  };
}

/** Steering for a dashboard, or why it is off (`--no-steer`, or thresholds gate without `--steer`). */
export function steeringFor(opts: ServeOptions, gated: boolean): RunSteering | string {
  if (opts.steer === false) return "--no-steer";
  if (gated && opts.steer !== true) {
    return "this run file's thresholds gate the result (give --steer to steer it; the run is then flagged steered)";
  }
  return new RunSteering();
}
