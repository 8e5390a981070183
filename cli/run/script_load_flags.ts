/**
 * @module
 * A session or k6 script's load from `loadlab run`'s flags, with k6's and Locust's spellings.
 */
import { defined } from "../../validation/defined.ts";
import { flag, type FlagSpec, type FlagTable, type RawArgs, wrapped } from "../argv.ts";
import { OPTION_FLAGS } from "../attack/flags.ts";
import { defaultText } from "../flag_values.ts";
import { OPTIONS } from "../../runner/config_fields.ts";
import type { FlagValues } from "../flag_values.ts";
import { parseStages, rampUpStages, spawnRateOf, spawnStages } from "../attack/schedules.ts";
import { DEFAULT_DURATION_MS } from "../../runner/load/models/fields.ts";
import { UsageError } from "../usage_error.ts";
import { K6_EXIT } from "../exit_codes.ts";
import { HTTP_DEBUG_MAX } from "../../runner/script/k6/http_debug.ts";
import {
  isTrendStat,
  K6_OPTIONS,
  type K6Option,
  TREND_STATS_TOLD,
} from "../../scenarios/k6/options_shape.ts";
import { expandSourceAddresses } from "../../runner/source_addresses.ts";
import { unbindableAddress } from "../../system/ports.ts";
import type { Stage } from "../../runner/load/models/ramping_connections.ts";
import { FileReadError, readTextFileCapped } from "../../system/read_capped.ts";
import { secretSources } from "../../runner/script/k6/secrets.ts";
import { MAX_EXPERIMENT_FILE_BYTES } from "../../validation/input_limits.ts";

/** The first spelling of each row of `rows`, with the `KEY=` a help-only row's flag fixes (`--out json=`). */
function spellings(rows: FlagTable): string {
  return rows.map((row) => /^\s*(-[\w-]+(?: [a-z]+=)?)/.exec(typeof row === "string" ? row : row.usage!)![1])
    .join(", ");
}

/** A script's load and variables, k6's spellings in the same rows. */
const LOAD_ROWS: FlagTable = [
  {
    ...OPTION_FLAGS.connections,
    usage: "-c, -u, --vus <n>",
    help: ["virtual users (connections); over a k6 script's options as k6's --vus"],
  },
  {
    ...OPTION_FLAGS.durationMs,
    ...flag("-d, -t, --duration <d>", { aliases: ["run-time"], example: "30s" }, ["how long, e.g. 30s"]),
  },
  {
    ...OPTION_FLAGS.requests,
    short: "i",
    aliases: ["iterations"],
    usage: "-i, --iterations <n>",
    help: ["this many sessions (k6 iterations), shared by the users"],
  },
  {
    ...OPTION_FLAGS.maxDurationMs,
    usage: "--max-duration <d>",
    help: [`with --iterations: stop there, flagged, if not done (${defaultText(OPTIONS.maxDurationMs)})`],
  },
  {
    ...OPTION_FLAGS.stages,
    ...flag("-s, --stages D:N,...", { aliases: ["stage"], repeatable: true, example: "30s:50" }, [
      "ramping users, k6's stages (repeatable; k6's --stage too),",
      "e.g. -s 30s:50 -s 1m:50 -s 30s:0",
    ]),
  },
  OPTION_FLAGS.rampUp,
  flag("-e, --env KEY=VALUE", { repeatable: true, example: "BASE=http://127.0.0.1:8080" }, [
    "a variable for the script (s.env, k6's __ENV; repeatable)",
  ]),
];

/** Locust's flags a locustfile takes beyond the load. */
const LOCUST_ROWS: FlagTable = [
  flag("-f, --locustfile <file>", { example: "locustfile.py" }, ["the locustfile (or name it first)"]),
  "  -H, --host URL            a locustfile's host (Locust's -H)",
  flag("--headless", {}, ["accepted: loadlab always runs headless"]),
  flag("--only-summary", {}, ["no progress lines, the summary only"]),
  flag("--print-stats", {}, ["accepted: loadlab prints its progress lines unless --only-summary"]),
  flag("-L, --loglevel <level>", { example: "WARNING" }, ["the level a locustfile's logging prints from"]),
  flag("--logfile <file>", { example: "logs/run.log" }, ["its logging lines to <file>, not stderr"]),
  flag("--html <file>", { example: "report.html" }, ["report.html written there too"]),
  flag("--csv <prefix>", { example: "out/locust" }, [
    "Locust's CSV files: <prefix>_stats.csv, _failures.csv, _stats_history.csv",
  ]),
  flag("--csv-full-history", {}, ["each name's rows a second in _stats_history.csv too"]),
  flag("--json", {}, ["Locust's stats as JSON on stdout at the end (all else on stderr)"]),
  flag("--json-file <file>", { example: "out/stats" }, ["Locust's stats as JSON to <file>.json"]),
  flag("--processes <n>", { example: "4" }, ["accepted: loadlab's workers share the users already"]),
  flag("--expect-workers <n>", { example: "10" }, ["accepted: Locust reads it under --master only"]),
  flag("--skip-log-setup", { aliases: ["skip-log"] }, ["accepted: a locustfile's logging is Python's"]),
  flag("-T, --tags <a,b>", { repeatable: true, manyValues: true, example: "checkout" }, [
    "only the tasks with these tags",
  ]),
  flag("-E, --exclude-tags <a,b>", { repeatable: true, manyValues: true, example: "slow" }, [
    "not the tasks with these tags",
  ]),
  flag("--stop-timeout <d>", { example: "10s" }, ["how long users may finish their task at the end"]),
  flag("--exit-code-on-error <n>", { example: "0" }, ["the exit code when a request failed (default 1)"]),
  flag("--reset-stats", {}, ["Locust's statistics counted from when the last user has spawned"]),
];

/** k6's flags a k6 script takes beyond the load. */
const K6_ROWS: FlagTable = [
  flag("--tag NAME=VALUE", { repeatable: true, example: "env=staging" }, [
    "a tag on every request and sample (thresholds select by it; repeatable)",
  ]),
  flag("--no-thresholds", {}, ["judge none of the script's thresholds"]),
  flag("-q, --quiet", {}, ["no progress lines while the runs go"]),
  flag("--no-summary", {}, ["no end-of-test summary, handleSummary or --summary-export"]),
  flag("--summary-export <file>", { example: "summary.json" }, [
    "k6's JSON summary export (its legacy shape) to <file>",
  ]),
  flag("--summary-trend-stats L", { example: "avg,p(95),p(99.9),count" }, [
    "the trends' stats in the summary, e.g. avg,p(95),p(99.9),count",
  ]),
  flag("--http-debug[=full]", { example: "full" }, [
    "each request and response on stderr (headers; =full adds bodies), the",
    `first ${HTTP_DEBUG_MAX} exchanges per worker, secrets redacted`,
  ]),
  flag("--console-output <file>", { example: "console.log" }, [
    "console lines appended to <file>, not stderr",
  ]),
  flag("--compatibility-mode <mode>", { example: "base" }, [
    "k6's JavaScript mode: extended (the default), base (no `global`) or experimental_enhanced",
  ]),
  "  --out json=<file>         k6's NDJSON of every metric sample (Metric and Point lines)",
  flag("--config <file>", { example: "options.json" }, [
    "k6's config file: JSON options under the script's (k6's --config or K6_CONFIG; not -c)",
  ]),
  flag("--secret-source TYPE=CONFIG", { repeatable: true, example: "file=secrets.txt" }, [
    "k6/secrets' source: file=PATH (KEY=VALUE lines) or mock=KEY=VALUE,...; name=N",
    "and default among its values name it (repeatable); values read are redacted",
  ]),
];

/** A k6 option's flag: k6's spelling, else its variable's name in kebab case (`--setup-timeout`). */
const flagOf = (o: K6Option) =>
  typeof o.flag === "string" ? o.flag : o.env!.toLowerCase().replaceAll("_", "-");
/** The options whose flags are read here (the run's own flags read the others). */
const OPTION_ROWS = Object.entries(K6_OPTIONS).filter(([, o]) => o.env && !o.ownFlag && !o.envRefused);

/** k6's flags of its own output, accepted and ignored (`=`: it takes a value). */
const OUTPUT_FLAGS = "--no-usage-report --no-color --log-format= --log-output= --profiling-enabled".split(
  " ",
);
const K6_OPTION_SPECS: FlagSpec[] = [
  ...OPTION_ROWS.map(([, o]) => ({
    long: flagOf(o),
    ...(o.kind === "switch" ? { takesValue: false, optionalValue: true } : { takesValue: true }),
    ...defined({ short: o.short, repeatable: o.kind === "list" || undefined }),
  })),
  ...OUTPUT_FLAGS.map((f) => ({ long: f.replace(/^--|=$/g, ""), takesValue: f.endsWith("=") })),
  { long: "verbose", short: "v", takesValue: false },
];
const OPTIONS_TOLD = OPTION_ROWS.filter(([, o]) => o.flag).map(([, o]) =>
  (o.short ? `-${o.short}/` : "") + `--${flagOf(o)}`
).join(" ");

/** k6's flags loadlab refuses, each with why and what to do (for the "unknown flag" error). */
export const K6_FLAGS_REFUSED: Record<string, string> = Object.fromEntries(
  Object.entries({
    "--execution-segment --execution-segment-sequence": "split a load with --segment I/N",
    "-l --linger -p --paused -a --address": "loadlab has no k6 REST API; steer a run with --serve",
    "--new-machine-readable-summary --traces-output": "loadlab runs k6 v1's defaults: drop it",
  }).flatMap(([flags, why]) => flags.split(" ").map((f) => [f, `k6's ${f}: ${why}`])),
);

/** The flags of a script's load, a locustfile's and a k6 script's own rows, as a refusal names them. */
export const LOAD_FLAGS_TOLD = spellings(LOAD_ROWS),
  LOCUST_FLAGS_TOLD = spellings(LOCUST_ROWS),
  K6_FLAGS_TOLD = spellings(K6_ROWS);

/** The rows of `loadlab run --help` for a script's load, k6's spellings in the same rows. */
export const SCRIPT_LOAD_TABLE: FlagTable = [
  "Scripts (session.ts or a k6 script.js) take their load from the command line too:",
  ...LOAD_ROWS,
  "A locustfile (docs/LOCUST.md) takes Locust's flags (-u, -r, -t above; user classes as arguments):",
  ...LOCUST_ROWS,
  "A k6 script also takes k6's flags:",
  ...K6_ROWS,
  ...wrapped(
    `k6's options, over the script's and K6_*: ${OPTIONS_TOLD}; of k6's own output, ignored: -v ` +
      OUTPUT_FLAGS.join(" ").replaceAll("=", ""),
    106,
  ).map((l) => `  ${l}`),
  ...K6_OPTION_SPECS,
];

/** The load flags as given (none given: every field undefined, `env` empty). */
export interface ScriptLoadArgs {
  vus?: number;
  durationMs?: number;
  iterations?: number;
  /** `--max-duration`: with `--iterations`, the count's bound (k6's maxDuration). */
  maxDurationMs?: number;
  stages?: Stage[];
  env: Record<string, string>;
  /** k6's flags beyond the load, for a k6 script only (absent when none was given). */
  k6?: K6Flags;
  /** Locust's flags beyond the load, for a locustfile only (absent when none was given). */
  locust?: LocustFlags;
}

/** A locustfile's command line: the user classes named after the file, the options the file adds. */
interface LocustCommand {
  users: string[];
  options: string[];
}

/** The load flags given, if any; a locustfile's users spawn as Locust's, at `-r` (default 1/s) for `-t`. */
export function scriptLoadArgs(flags: FlagValues, locust?: LocustCommand, k6Script = false) {
  // k6 takes `-u 0`: alone it runs one iteration, with a duration or iterations its config refuses it.
  const vus = k6Script ? flags.wholeNumber("concurrency", 0) : flags.positiveInt("concurrency");
  const iterations = flags.positiveInt("requests");
  const durationMs = flags.durationMs("duration"), maxDurationMs = flags.durationMs("max-duration");
  if (maxDurationMs !== undefined && iterations === undefined) {
    throw new UsageError("--max-duration bounds --iterations: give --iterations N with it, or use -d");
  }
  const stageTexts = flags.all("stages");
  let stages = stageTexts.length === 0 ? undefined : parseStages(stageTexts.join(","), flags.typed("stages"));
  const rampUp = flags.text("ramp-up");
  if (locust) {
    if (stages === undefined && iterations === undefined && vus !== undefined && vus > 1) {
      stages = spawnStages(spawnRateOf(rampUp ?? "1"), vus, durationMs ?? DEFAULT_DURATION_MS);
    }
  } else if (rampUp !== undefined) {
    if (vus === undefined) {
      const typed = flags.typed("ramp-up");
      throw new UsageError(
        `${typed} is a spawn rate up to a number of users: give -c N (Locust's -u N) with it`,
      );
    }
    if (stages !== undefined) throw new UsageError("give --stages or --ramp-up, not both");
    stages = rampUpStages(rampUp, vus, durationMs);
  }
  const env: Record<string, string> = {};
  for (const pair of flags.all("env")) {
    // As k6's: NAME alone is the empty string; a name is a letter or _, then letters, digits or _.
    const [key, value = ""] = pair.split(/=(.*)/s, 2), e = "e.g. -e BASE=http://127.0.0.1:8080";
    if (!/^[A-Za-z_]\w*$/.test(key)) {
      throw new UsageError(`-e "${pair}": ${key} is not a variable's name, ${e}`);
    }
    env[key] = value;
  }
  const k6 = k6FlagsOf(flags), locustFlags = locustFlagsOf(flags, locust);
  const args: ScriptLoadArgs = {
    vus,
    durationMs,
    iterations,
    stages,
    env,
    ...defined({
      maxDurationMs,
      k6: Object.keys(k6).length > 0 ? k6 : undefined,
      locust: locust || Object.keys(locustFlags).length > 0 ? locustFlags : undefined,
    }),
  };
  return hasLoadFlags(args) || Object.keys(env).length > 0 || args.k6 || args.locust ? args : undefined;
}

/** Locust's flags beyond the load, with a locustfile's user classes, `--host` and the file's options. */
type LocustFlags = Partial<ReturnType<typeof locustFlagsOf>>;

/** Locust's flags beyond the load; with `command`, its user classes, `--host` and the options given. */
function locustFlagsOf(flags: FlagValues, command?: LocustCommand) {
  const list = (name: string) =>
    flags.has(name)
      ? flags.all(name).flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean)
      : undefined;
  const options = command?.options.filter((o) => flags.has(o)) ?? [];
  return defined({
    users: command?.users.length ? command.users : undefined,
    host: command && flags.text("host"),
    options: options.length > 0 ? Object.fromEntries(options.map((o) => [o, flags.text(o)!])) : undefined,
    tags: list("tags"),
    excludeTags: list("exclude-tags"),
    csv: flags.path("csv"),
    csvFullHistory: flags.has("csv-full-history") || undefined,
    json: flags.has("json") || undefined,
    jsonFile: flags.path("json-file"),
    onlySummary: flags.has("only-summary") || undefined,
    headless: flags.has("headless") || undefined,
    stopTimeoutMs: flags.durationMs("stop-timeout"),
    exitCodeOnError: flags.wholeNumber("exit-code-on-error", 0, 255),
    resetStats: flags.has("reset-stats") || undefined,
    spawnRate: flags.has("ramp-up") ? spawnRateOf(flags.text("ramp-up")!) : undefined,
    logLevel: flags.text("loglevel")?.toUpperCase(),
    logFile: flags.path("logfile"),
    // Locust's tags in the file's name: users, spawn rate and run time (s), each when given or set.
    html: flags.path("html")?.replace(/\{([urt])\}/g, (tag, k: "u" | "r" | "t") => {
      const rate = spawnRateOf(flags.text("ramp-up") ?? "1"),
        runSec = (flags.durationMs("duration") ?? NaN) / 1000;
      const v = { u: flags.positiveInt("concurrency") ?? 1, r: rate, t: runSec }[k];
      return Number.isNaN(v) ? tag : String(v);
    }),
  });
}

/** Whether an `--out` value is a k6 output of each sample: `json=FILE`, `csv[=ARG]`, `influxdb[=URL]`. */
export const isSamplesOut = (value: string) => /^(json=|(csv|influxdb)(=|$))/.test(value);

/** k6's flags beyond the load, each checked as k6 checks it; `options` those of the option flags. */
function k6FlagsOf(flags: FlagValues) {
  const { localIPs, includeSystemEnvVars, ...options } = k6Options(flags);
  const stats = flags.text("summary-trend-stats")?.split(",").map((s) => s.trim());
  const bad = stats?.find((s) => !isTrendStat(s));
  if (bad !== undefined) {
    const typed = `--summary-trend-stats "${flags.text("summary-trend-stats")}"`;
    throw new UsageError(`${typed}: "${bad}" is not a trend stat: k6's are ${TREND_STATS_TOLD}`);
  }
  if (stats !== undefined) options.summaryTrendStats = stats;
  const tags = flags.all("tag").map((pair) => {
    const [name, value] = pair.split(/=(.*)/s, 2);
    if (!name || !value) throw new UsageError(`--tag "${pair}": write NAME=VALUE, e.g. --tag env=staging`);
    return [name, value];
  });
  const outs = flags.all("out").filter(isSamplesOut), config = flags.path("config");
  const debug = flags.text("http-debug") === "" ? "headers" : flags.choice("http-debug", ["headers", "full"]);
  return defined({
    tags: tags.length > 0 ? Object.fromEntries(tags) as Record<string, string> : undefined,
    noThresholds: flags.has("no-thresholds") || undefined,
    quiet: flags.has("quiet") || undefined,
    noSummary: flags.has("no-summary") || flags.text("summary-mode") === "disabled" || undefined,
    summaryExport: flags.path("summary-export"),
    httpDebug: debug,
    outs: outs.length > 0 ? outs : undefined,
    consoleOutput: flags.path("console-output"),
    compatibilityMode: compatibilityModeOf(flags),
    options: Object.keys(options).length > 0 ? options : undefined,
    systemEnv: includeSystemEnvVars === false ? false as const : undefined,
    localIPs: localIPs as string[] | undefined,
    secretSources: flags.has("secret-source") ? checkedSecretSources(flags.all("secret-source")) : undefined,
    config: config === undefined ? undefined : configOptions(config),
  });
}

export type K6Flags = Partial<ReturnType<typeof k6FlagsOf>>;

const MODES = ["extended", "base", "experimental_enhanced"];

/** `--compatibility-mode` (or K6_COMPATIBILITY_MODE) as k6 checks it: one of its three, else 255. */
function compatibilityModeOf(flags: FlagValues): string | undefined {
  const mode = flags.text("compatibility-mode");
  if (mode === undefined || MODES.includes(mode)) return mode;
  const why = `invalid compatibility mode "${mode}". Use: ${MODES.map((m) => `"${m}"`).join(", ")}`;
  throw new UsageError(why, { exitCode: K6_EXIT.commandFailed });
}

/** `--secret-source` lines, checked (each file read) as k6 checks them. */
function checkedSecretSources(lines: string[]): string[] {
  try {
    secretSources(lines, (path) => readTextFileCapped(path, MAX_EXPERIMENT_FILE_BYTES));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new UsageError(message, { cause: err, exitCode: K6_EXIT.commandFailed });
  }
  return lines;
}

/** `--config FILE` (k6's or a locustfile's) as `parse` reads it; a problem names the flag (`exitCode`). */
export function configFile<T>(path: string, parse: (text: string) => T, exitCode?: number): T {
  try {
    return parse(readTextFileCapped(path, MAX_EXPERIMENT_FILE_BYTES));
  } catch (err) {
    const why = err instanceof FileReadError ? err.reason : err instanceof Error ? err.message : String(err);
    throw new UsageError(`--config ${path}: ${why}`, { exitCode });
  }
}

/** k6's config file: missing, malformed or not an object, k6's invalid config (104). */
function configOptions(path: string): Record<string, unknown> {
  return configFile(path, (text) => {
    const options: unknown = JSON.parse(text);
    if (options !== null && typeof options === "object" && !Array.isArray(options)) return options;
    throw new Error(`k6's config is a JSON object of options, e.g. {"vus": 10}`);
  }, K6_EXIT.invalidConfig) as Record<string, unknown>;
}

/** How the load runs: a tier of k6's options giving one drops all four of the tiers under it (`Apply`). */
const EXECUTION = ["duration", "iterations", "stages", "scenarios"];
const over = (lower: Record<string, unknown> = {}, higher: Record<string, unknown>) =>
  EXECUTION.some((k) => higher[k] !== undefined)
    ? { ...Object.fromEntries(Object.entries(lower).filter(([k]) => !EXECUTION.includes(k))), ...higher }
    : { ...lower, ...higher };

/** A k6 script's `options` in k6's tiers: `--config`'s, the script's, the flags' `load`, k6's other flags. */
export function withK6Flags(
  options: Record<string, unknown>,
  k6: K6Flags | undefined,
  load: Record<string, unknown> = {},
): Record<string, unknown> {
  const out = { ...over(over(k6?.config, options), load), ...k6?.options };
  if (k6?.tags !== undefined) out.tags = k6.tags;
  if (k6?.noThresholds) delete out.thresholds;
  return out;
}

/** k6's options of the flags given (yes/no, whole numbers, lists, else text), `K6_*` variables as flags. */
function k6Options(flags: FlagValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, o] of OPTION_ROWS) {
    const given = flags.all(flagOf(o)), spelled = flags.typed(flagOf(o));
    const text = o.kind === "list" && given.length > 0 ? given.join(",") : given.at(-1);
    // `--system-tags ''` keeps no tag; an empty yes/no flag is yes.
    const value = text === "" && o.kind === "switch" ? "true" : text?.trim();
    if (value === undefined || (value === "" && key !== "systemTags")) continue;
    // As k6's: a flag it cannot read is a refused command line (255), a variable an invalid config (104).
    const exitCode = spelled.startsWith("K6_") ? K6_EXIT.invalidConfig : K6_EXIT.commandFailed;
    const bad = (what: string, e: string) =>
      new UsageError(`${spelled}="${value}": ${what}, e.g. ${spelled}=${e}`, { exitCode });
    // k6 checks the flag's unit alone: a script's or K6_SUMMARY_TIME_UNIT's is taken as given.
    if (spelled === "--summary-time-unit" && !/^(s|ms|us)$/.test(value)) throw bad("s, ms or us", "ms");
    if (o.kind === "switch") {
      if (!/^(1|t|true|0|f|false)$/i.test(value)) throw bad("true or false", "true");
      out[key] = /^(1|t|true)$/i.test(value);
    } else if (o.kind === "count") {
      if (!/^\d+$/.test(value)) throw bad("a whole number", "10");
      out[key] = Number(value);
    } else if (o.kind === "dns") {
      out[key] = Object.fromEntries(value.split(",").map((kv) => kv.split(/=(.*)/s, 2)));
    } else if (o.kind === "ips") {
      const ips = expandSourceAddresses(value), foreign = "problem" in ips ? null : unbindableAddress(ips);
      if ("problem" in ips) throw bad(ips.problem, "10.0.0.1-10.0.0.50,192.168.1.0/24");
      if (foreign !== null) {
        throw bad(`cannot send from ${foreign}: give addresses of this host`, "127.0.0.2");
      }
      out[key] = ips;
    } else out[key] = o.kind === "list" ? value.split(",").map((s) => s.trim()).filter(Boolean) : value;
  }
  return out;
}

/** Bundled switches as k6's pflag (and argparse, commander) reads them: `-qu 1` is `-q -u 1`. */
export function unbundled(argv: string[], specs: FlagSpec[]): string[] {
  const switches = specs.flatMap((s) => s.takesValue || s.optionalValue ? [] : [s.short]);
  const split = (arg: string): string[] =>
    /^-[a-zA-Z]{2}/.test(arg) && switches.includes(arg[1])
      ? [arg.slice(0, 2), ...split(`-${arg.slice(2)}`)]
      : [arg];
  return argv.flatMap(split);
}

/** The flags k6 reads from a variable too: `K6_` and the option's (`--tag`: K6_TAGS, `--vus`: K6_VUS). */
const K6_ENV_FLAGS = Object.values(K6_OPTIONS).filter((o) => o.env && !o.envRefused)
  .map((o) => [flagOf(o), `K6_${o.env}`]);

/** A k6 script's flags not on the command line, from k6's variables (`K6_TAGS=env:ci`: `--tag env=ci`). */
export function withK6EnvFlags(raw: RawArgs, specs: FlagSpec[]): void {
  // The flags' duration, iterations or stages replace all three of the variables' (k6's tiers).
  const load = ["duration", "requests", "stages"], flagsLoad = load.some((long) => raw.values.has(long));
  for (const [long, name] of K6_ENV_FLAGS) {
    const value = Deno.env.get(name)?.trim();
    if (!value || raw.values.has(long) || (flagsLoad && load.includes(long))) continue;
    const spec = specs.find((s) => s.long === long)!;
    if (spec.takesValue || spec.optionalValue) {
      const list = long === "tag" ? value.split(",").map((t) => t.replace(":", "=")) : value.split(",");
      raw.values.set(long, spec.repeatable ? list : [value]);
    } else if (/^(1|t|true)$/i.test(value)) raw.values.set(long, [""]);
    raw.spelled.set(long, name);
  }
}

/** Whether any load flag (not `-e`) was given. */
export function hasLoadFlags(a: ScriptLoadArgs): boolean {
  return [a.vus, a.durationMs, a.iterations, a.stages].some((v) => v !== undefined);
}

/** The flags' load (file form) for a session, over its `loads`: keeps the protocol and streams all share. */
export function sessionLoadOf(a: ScriptLoadArgs, loads: Record<string, Record<string, unknown>> = {}) {
  const ms = (n: number | undefined) => n === undefined ? undefined : `${n}ms`;
  const kept: Record<string, unknown> = {};
  for (const key of ["protocol", "streams"]) {
    const values = new Set(Object.values(loads).map((load) => load[key]));
    if (values.size === 1 && !values.has(undefined)) kept[key] = [...values][0];
  }
  if (a.stages !== undefined) {
    const stages = a.stages.map((s) => ({ duration: ms(s.durationMs), target: s.target }));
    return { ...kept, model: "connections", stages };
  }
  if (a.iterations === undefined) {
    // Unset, connections and duration take the model's defaults (runner/config_fields.ts).
    return { ...kept, model: "connections", connections: a.vus, duration: ms(a.durationMs) };
  }
  const durations = defined({ duration: ms(a.durationMs), maxDuration: ms(a.maxDurationMs) });
  return { ...kept, model: "count", requests: a.iterations, connections: a.vus ?? 1, ...durations };
}

/** Whether a `--target` name is an origin the script names (`https://test.k6.io`), not a target's name. */
export function isOriginName(name: string): boolean {
  return /^https?:\/\//.test(name);
}
