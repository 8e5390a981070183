/**
 * @module
 * The dashboard's flags and options, apart from its server (which loads the report page's renderer).
 */
import { defined } from "../../validation/defined.ts";
import { RunSteering } from "../../runner/steering.ts";
import { flag, type FlagSpec } from "../argv.ts";
import type { FlagValues } from "../flag_values.ts";
import { UsageError } from "../usage_error.ts";

/** How to serve: `port` 0 picks a free one. */
export interface ServeOptions {
  host: string;
  port: number;
  open: boolean;
  /** `--no-redact`: the page shows secrets as they are (results/redact.ts). */
  keepSecrets?: boolean;
  /** Steering of the runs through `/control`, or the reason it is off. */
  steering?: RunSteering | string;
  /** `--steer` (true) or `--no-steer` (false); absent: the command's default (`steeringFor`). */
  steer?: boolean;
}

/** The dashboard's flags, shared by `run`, `demo` and `attack`, with their help lines. */
export const DASHBOARD_FLAGS: FlagSpec[] = [
  flag("--dashboard", {}, [
    "serve a live dashboard on 127.0.0.1 (a free port, printed): the report",
    "page, growing as the runs go (Server-Sent Events); at the end it is",
    "the same page as report.html",
  ]),
  flag("--dashboard-port N", { example: "8700" }, ["the dashboard's port (implies --dashboard)"]),
  flag("--open", {}, ["open the dashboard in a browser when one is found"]),
  flag("--host H", { example: "127.0.0.1" }, [
    "with --dashboard: listen on H, not 127.0.0.1 (warns: readable from the network)",
  ]),
  flag("--steer", {}, [
    "the dashboard's controls change the run under way: pause/resume, rate",
    "(open models), connections (closed), end the phase, stop; also from a",
    "terminal: loadlab steer URL ACTION (URL and its token are printed).",
    "On by default with --dashboard, except for a run file whose thresholds",
    "gate the result; a steered run is flagged steered (docs/REFERENCE.md)",
  ]),
  flag("--no-steer", {}, ["a dashboard that only watches: no controls, no control endpoint"]),
];

/** A command's `{dashboard}` options, or nothing when none of its flags was given. */
export function dashboardOptions(flags: FlagValues): { dashboard?: ServeOptions } {
  if (!DASHBOARD_FLAGS.some((spec) => flags.has(spec.long))) return {};
  // oha's --host and hey's -host set the Host header: alone, --host is refused rather than serving there.
  if (DASHBOARD_FLAGS.every((spec) => spec.long === "host" || !flags.has(spec.long))) {
    const host = flags.nonEmpty("host");
    throw new UsageError(
      `${flags.typed("host")} ${host}: where --dashboard listens; a Host header is -H "Host: ${host}"`,
    );
  }
  if (flags.has("steer") && flags.has("no-steer")) {
    throw new UsageError("use --steer or --no-steer, not both");
  }
  const dashboard: ServeOptions = {
    host: flags.nonEmpty("host") ?? "127.0.0.1",
    port: flags.wholeNumber("dashboard-port", 0, 65535) ?? 0,
    open: flags.has("open"),
    ...defined({ steer: flags.has("steer") ? true : flags.has("no-steer") ? false : undefined }),
  };
  return { dashboard };
}

/** Steering for a dashboard, or why it is off (`--no-steer`, or thresholds gate without `--steer`). */
export function steeringFor(opts: ServeOptions, gated: boolean): RunSteering | string {
  if (opts.steer === false) return "--no-steer";
  if (gated && opts.steer !== true) {
    return "this run file's thresholds gate the result (give --steer to steer it; the run is then flagged steered)";
  }
  return new RunSteering();
}
