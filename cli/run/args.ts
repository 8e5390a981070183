/**
 * @module
 * The flags of `loadlab run` (and `loadlab demo`).
 */
import { defined } from "../../validation/defined.ts";
import { RESERVED_KEYS } from "../../scenarios/overrides.ts";
import { commonFields } from "../../runner/config_fields.ts";
import { OPTION_FLAGS } from "../attack/flags.ts";
import { flag, flagsOf, type FlagSpec, type FlagTable, helpOf, type RawArgs, tokenize } from "../argv.ts";
import { join, resolve } from "node:path";
import { existsSync, readdirSync, statSync } from "node:fs";
import { FlagValues, parseMetricsOuts } from "../flag_values.ts";
import { K6_SUMMARY_MODES, type K6SummaryMode } from "../../results/export/k6/summary_v1.ts";
import { UsageError } from "../usage_error.ts";
import {
  ABORT_ON_FAIL,
  abortOnFailArg,
  DELAY_ABORT_EVAL,
  parseSegment,
  parseStartAt,
  SEGMENT_FLAGS,
} from "../segment_args.ts";
import type { LoadPlanOptions } from "../../scenarios/load.ts";
import { CI_FLAGS, type ResultsArgs, resultsArgs } from "../ci_outputs.ts";
import { exitCodesHelp, LOCUST_FILE_REFUSED, STRICT_FLAG } from "../exit_codes.ts";
import { DASHBOARD_FLAGS } from "../dashboard/flags.ts";
import { isMetricsOut, type MetricsOutput } from "../../results/export/metrics_output.ts";
import { BASELINE_FLAGS } from "../baseline_flags.ts";
import {
  configFile,
  isSamplesOut,
  K6_FLAGS_REFUSED,
  SCRIPT_LOAD_TABLE,
  type ScriptLoadArgs,
  scriptLoadArgs,
  unbundled,
  withK6EnvFlags,
} from "./script_load_flags.ts";
import { isK6Script, isLocustFile } from "./script_check.ts";
import { type ArtilleryRunFlags, isArtilleryScript } from "../../scenarios/artillery/common.ts";
import { yamlPackage } from "../../validation/yaml_package.ts";

const RUN_TABLE: FlagTable = [
  flag("--quick", {}, ["apply the file's quick: section (a shorter run of the same shape)"]),
  flag("--out-dir <dir>", { example: "out/study" }, [
    "where results.json, report.html and target logs go (default out/<name>)",
  ]),
  flag("--resume", {}, [
    "keep the complete runs of <dir>/results.json and run only the rest",
    "(a run that got no response runs again)",
  ]),
  flag("--long", {}, ["run a plan longer than a day (refused without it: a sweep's product, most often)"]),
  flag("--only target=X,load=Y", { repeatable: true, example: "target=direct,load=burst" }, [
    "run a subset (repeat a key for several: target=a,target=b)",
  ]),
  flag("--set PATH=VALUE", { repeatable: true, example: "repeats=5" }, [
    "override a field of the file before validation, e.g. --set repeats=5",
    "(repeatable; VALUE is read as a YAML scalar)",
  ]),
  flag("--target NAME=URL", { repeatable: true, example: "mine=http://127.0.0.1:3000" }, [
    "replace a target by a server already running (repeatable)",
  ]),
  flag("--profile", {}, [
    "a CPU profile of every target loadlab starts (node or deno), per run:",
    "profiles/*.cpuprofile beside results.json, top functions and flame",
    'graphs in the report (the numbers are then "profiled"; docs/PROFILES.md)',
  ]),
  flag("--summary-mode <mode>", { example: "compact" }, [
    "a k6 script's end-of-test summary: compact (k6 v1's, the default), full,",
    "legacy (k6 0.x's layout), or disabled (as --no-summary)",
  ]),
  ...CI_FLAGS,
  flag("-o, --out KIND=URL", {
    repeatable: true,
    example: "prometheus-remote-write=http://127.0.0.1:9090/api/v1/write",
  }, [
    "stream metrics per interval while the runs go (repeatable):",
    "prometheus-remote-write=URL, otlp=URL (protobuf) or otlp-json=URL",
    "(docs/METRICS_OUT.md)",
  ]),
  flag("--no-redact", {}, [
    "keep secrets (URL passwords, Authorization/Cookie/*token*/*key*/",
    "*signature* headers, such query parameters and target env vars) in",
    "every output",
  ]),
  {
    ...OPTION_FLAGS.maxMemoryMb,
    help: [...OPTION_FLAGS.maxMemoryMb.help!, "(each run's; over every load's maxMemoryMb)"],
  },
  STRICT_FLAG,
  {
    ...ABORT_ON_FAIL,
    help: [
      "every threshold of the file gets abortOnFail: judged while each run",
      "goes, the first failure stops it and the experiment (exit 1)",
    ],
  },
  {
    ...DELAY_ABORT_EVAL,
    help: [
      "with --abort-on-fail: not before D of measured time, e.g. 10s (replaces",
      "each threshold's delayAbortEval; default: the file's, else 0s)",
    ],
  },
  ...SEGMENT_FLAGS,
  flag("--replay <results.json>", { example: "out/study/results.json" }, [
    "run each steered run of that file again with its recorded changes (pause,",
    "rate, connections, end of a phase, stop) at their instants (docs/REFERENCE.md)",
  ]),
  ...BASELINE_FLAGS,
  // A locustfile's `-H URL` is `--host` (a dashboard's host otherwise; attack's -H is a header).
  ...DASHBOARD_FLAGS.map((f) => f.long === "host" ? { ...f, aliases: ["H"] } : f),
  ...SCRIPT_LOAD_TABLE,
  flag("-h, --help", {}, ["this help"]),
];

const SPECS = flagsOf(RUN_TABLE);

/** `artillery run`'s flags: on an Artillery script they take their letters from the flags above. */
const ARTILLERY_TABLE: FlagTable = [
  "An Artillery script (config: + scenarios:) takes artillery run's flags, over the same letters above:",
  flag("-e, --environment <name>", { example: "staging" }, ["config.environments.<name> merged into config"]),
  flag("-t, --target <url>", { example: "http://127.0.0.1:8080" }, [
    "replaces config.target; -q: quiet, as above",
  ]),
  flag("--overrides <json>", { example: '{"config":{"http":{"timeout":5}}}' }, ["merged into the script"]),
  flag("-v, --variables <json>", { example: '{"id":1}' }, ["set in config.variables"]),
  flag("--dotenv <file>", { example: ".env" }, [
    "NAME=value lines {{ $env.NAME }} reads (the environment wins)",
  ]),
  flag("-c, --config <file>", { example: "common.yml" }, ["its keys merged over the script's"]),
  flag("-s, --solo", {}, ["one virtual user: config.phases replaced by one arrival"]),
  flag("-k, --insecure", {}, ["https certificates are not checked"]),
  flag("--scenario-name <name>", { example: "checkout" }, ["only the scenario of that name (or regexp)"]),
  flag("--count <n>", { example: "2" }, ["local workers sharing the same load: no change here"]),
  flag("-o, --output <file>", { example: "report.json" }, [
    "Artillery's JSON report (aggregate, intermediate)",
  ]),
  "  --record, --key, --platform ...: refused: the run is local, its results in --out-dir",
];
const ARTILLERY = flagsOf(ARTILLERY_TABLE), TAKEN = ["e", "t", "o", "v", "c", "s", "k"];
/** `artillery run`'s flags for Artillery Cloud and its platforms: the run here is local. */
const CLOUD = ["--record", "--key", "--platform", "--platform-opt", "--tags", "--note", "--name"];
const ARTILLERY_SPECS = [
  ...ARTILLERY,
  ...SPECS.filter((s) => !["target", "config"].includes(s.long)).map((s) => ({
    ...s,
    short: TAKEN.includes(s.short!) ? undefined : s.short,
    aliases: s.aliases?.filter((a) => !TAKEN.includes(a)),
  })),
];

/** Whether `path` is an Artillery script: YAML of Artillery's config: and scenarios: (else the run says). */
async function isArtilleryFile(path: string, config?: string): Promise<boolean> {
  if (!/\.ya?ml$/.test(path)) return false;
  const { parse } = await yamlPackage();
  try {
    // Its config may come from `--config FILE` alone; quiet: the experiment reader names an unknown tag.
    const read = (file: string) => configFile(file, (text) => parse(text, { logLevel: "error" }));
    const doc = read(path), extra = config === undefined ? {} : read(config);
    return isArtilleryScript({ ...doc, config: doc?.config ?? extra?.config });
  } catch {
    return false;
  }
}

export const RUN_HELP = `loadlab run: run an experiment file (or a preset shipped inside loadlab)

Usage: loadlab run FILE|preset:NAME [options]

${helpOf([...RUN_TABLE, ...ARTILLERY_TABLE], { flagAt: 2, textAt: 28 })}

The file format: docs/EXPERIMENTS.md. 'loadlab presets' lists the presets.
${exitCodesHelp("run")}`;

/** What `loadlab run` was asked: each field is the flag of its name; `source` a file or `preset:NAME`. */
export interface RunArgs
  extends
    ResultsArgs,
    Required<Pick<LoadPlanOptions, "quick" | "set" | "targets">>,
    Pick<LoadPlanOptions, "only" | "segment" | "startAtEpochMs" | "profile" | "maxMemoryMb" | "abortOnFail"> {
  source: string;
  outDir?: string;
  resume: boolean;
  /** A plan longer than a day was meant (`--long`). */
  long: boolean;
  summaryMode?: K6SummaryMode;
  metricsOut?: MetricsOutput[];
  replay?: string;
  scriptLoad?: ScriptLoadArgs;
  /** An Artillery script's `artillery run` flags (`quiet`: its `-q`). */
  artillery?: ArtilleryRunFlags & { quiet?: boolean };
}

/** Parses the arguments after `run` (or `demo`, with its help); throws `UsageError` or `HelpRequested`. */
export async function parseRunArgs(given: string[], command = "run", help = RUN_HELP): Promise<RunArgs> {
  const argv = unbundled(withLocustSettings(given), SPECS);
  const hints = {
    ...Object.fromEntries(
      CLOUD.map((f) => [f, `Artillery's ${f} is for Artillery Cloud runs: drop it (a run here is local)`]),
    ),
    "--class-picker": "it picks classes in Locust's web UI; name the user classes after the locustfile",
    ...K6_FLAGS_REFUSED,
  };
  const known = tokenize(argv, SPECS, {}, command, undefined, true), files = known.positionals;
  const own = await locustOptionSpecs(known);
  const config = argv[argv.findIndex((a) => a === "--config" || a === "-c") + 1];
  const artillery = (await Promise.all(files.map((f) => isArtilleryFile(f, config)))).some(Boolean);
  const specs = [...artillery ? ARTILLERY_SPECS : SPECS, ...own];
  const raw = tokenize(argv, specs, hints, command, help);
  const k6 = raw.positionals.length === 1 && await isK6Script(raw.positionals[0]);
  if (k6) withK6EnvFlags(raw, SPECS);
  const quiet = artillery && raw.values.delete("quiet"); // Artillery's -q, not a k6 script's
  const configFlag = artillery ? raw.values.get("config")?.at(-1) : undefined; // nor its --config
  raw.values.delete(artillery ? "config" : "");
  const flags = new FlagValues(raw, specs);
  // Locust's command line: `-f FILE` (or a .py first), the user classes to run after it, `-H` its host.
  const locust = locustSource(flags, raw.positionals, own);
  if (locust === undefined && (raw.positionals.length !== 1 || raw.positionals[0] === "-")) {
    throw positionalsProblem(raw.positionals, command);
  }
  for (const set of flags.all("set")) {
    if (!/^[^=]+=/.test(set)) throw new UsageError(`--set "${set}": write PATH=VALUE, e.g. --set repeats=5`);
  }
  const scriptLoad = scriptLoadArgs(flags, locust, k6);
  if (locust !== undefined) raw.values.delete("host"); // a locustfile's, not a dashboard's
  return {
    source: locust?.source ?? raw.positionals[0],
    quick: flags.has("quick"),
    outDir: flags.path("out-dir"),
    resume: flags.has("resume"),
    long: flags.has("long"),
    only: flags.has("only") ? parseOnly(flags.all("only")) : undefined,
    ...segmentOf(flags),
    set: flags.all("set"),
    targets: artillery ? {} : parseTargets(flags.all("target")),
    ...defined({
      artillery: artillery
        ? defined({
          ...Object.fromEntries(ARTILLERY.map((s) => [s.long, flags.text(s.long)])),
          quiet,
          config: configFlag && JSON.stringify(configFile(configFlag, (await yamlPackage()).parse)),
          solo: flags.has("solo") || undefined,
          insecure: flags.has("insecure") || undefined,
        })
        : undefined,
      profile: flags.has("profile") || undefined,
      summaryMode: flags.choice("summary-mode", K6_SUMMARY_MODES),
    }),
    ...resultsArgs(flags),
    ...defined({
      maxMemoryMb: maxMemoryOf(flags),
      metricsOut: metricsOutsOf(flags),
      replay: flags.path("replay"),
      abortOnFail: abortOnFailArg(flags),
      scriptLoad,
    }),
  };
}

/** `argv` over Locust's settings in its order: locust.conf, pyproject.toml, `--config`, `LOCUST_*`. */
function withLocustSettings(argv: string[]): string[] {
  if (!argv.some((a) => a === "-f" || a === "--locustfile" || isLocustFile(a))) return argv;
  const at = argv.indexOf("--config");
  const settings = new Map<string, string>();
  const files = ["locust.conf", "pyproject.toml"].filter(existsSync).concat(at >= 0 ? [argv[at + 1]] : []);
  for (const file of files) {
    let table = file.endsWith(".toml") ? "" : "locust"; // a TOML file's [tool.locust] table only
    for (const line of configFile(file, (text) => text.split("\n"))) {
      table = /^\s*\[([^\]]*)\]/.exec(line)?.[1] ?? table;
      const [, k = "locustfile", v] = /^\s*([\w-]+)\s*=\s*(.*?)\s*$/.exec(line) ?? [];
      if (/^(tool\.)?locust$/.test(table) && k !== "locustfile") settings.set(k.replaceAll("_", "-"), v);
    }
  }
  for (const [k, v] of Object.entries(Deno.env.toObject())) {
    const name = k.slice("LOCUST_".length).toLowerCase().replaceAll("_", "-");
    const known = name === "user-classes" || SPECS.some((s) => s.long === name || s.aliases?.includes(name));
    if (k.startsWith("LOCUST_") && known) settings.set(name, v);
  }
  // A list as one value, `--tags=a,b` (its next values would take the locustfile's path too), unquoted.
  const bare = (v: string) => v.trim().replace(/^(["'])(.*)\1$/, "$2");
  const value = (v: string) => /^\[(.*)\]$/.exec(v)?.[1].split(",").map(bare).join(",") ?? bare(v);
  // The user classes to run (`LOCUST_USER_CLASSES="A B"`) after the locustfile, as its arguments.
  const classes = value(settings.get("user-classes") ?? "").split(/[\s,]+/).filter(Boolean);
  settings.delete("user-classes");
  // Before the command line's own: a flag given there wins, as the last of a flag does.
  const under = [...settings].filter(([, v]) => v !== "false").map(([k, v]) =>
    v === "true" ? `--${k}` : `--${k}=${value(v)}`
  );
  return [...under, ...(at >= 0 ? [...argv.slice(0, at), ...argv.slice(at + 2)] : argv), ...classes];
}

/** The options a locustfile named in `raw` adds (`parser.add_argument`) that are not loadlab's own. */
async function locustOptionSpecs(raw: RawArgs): Promise<FlagSpec[]> {
  try {
    const file = raw.values.get("locustfile")?.at(-1) ?? raw.positionals.find(isLocustFile);
    if (file === undefined) return [];
    const { convertLocustFile } = await import("../../runner/script/locust/file.ts");
    const { options, switches } = convertLocustFile(locustFiles(file));
    const own = options.filter((o) => !SPECS.some((s) => s.long === o));
    return own.map((long) => ({ long, takesValue: !switches.includes(long) }));
  } catch {
    return []; // the parse proper reports a bad flag, the run a file it cannot read or convert
  }
}

/** A locustfile's run: its path (`-f`, else the first argument ending .py), the classes named after it. */
function locustSource(flags: FlagValues, positionals: string[], own: FlagSpec[]) {
  const options = own.map((s) => s.long);
  const file = flags.path("locustfile"), py = positionals[0]?.endsWith(".py");
  if (file !== undefined) return { source: locustFiles(file), users: positionals, options };
  if (py) return { source: positionals[0], users: positionals.slice(1), options };
}

/**
 * `-f`'s locustfiles, as Locust reads it: a file, a folder's `.py` files (but `_*` ones) or a
 * comma-separated list of either; several are joined by commas, each resolved.
 */
function locustFiles(given: string): string {
  const files = given.split(",").flatMap((f) =>
    existsSync(f) && statSync(f).isDirectory()
      ? readdirSync(f, { recursive: true }).map(String).filter((p) => /(^|\/)[^_/][^/]*\.py$/.test(p))
        .sort().map((p) => join(f, p))
      : [f]
  );
  const bad = files.length === 0 ? given : files.find((f) => !f.endsWith(".py"));
  if (bad !== undefined) {
    const exitCode = LOCUST_FILE_REFUSED;
    throw new UsageError(`-f ${bad}: give a locustfile (.py) or a folder of them`, { exitCode });
  }
  return files.length === 1 ? files[0] : files.map((f) => resolve(f)).join(",");
}

/** `--max-memory-mb`, checked by the config's own rule for the field. */
function maxMemoryOf(flags: FlagValues): number | undefined {
  const maxMemoryMb = flags.positiveInt("max-memory-mb");
  const checked = commonFields.maxMemoryMb.safeParse(maxMemoryMb);
  if (!checked.success) {
    throw new UsageError(`--max-memory-mb ${maxMemoryMb}: ${checked.error.issues[0].message}`);
  }
  return maxMemoryMb;
}

/** The `--out KIND=URL` flags (k6's json, csv and influxdb: its script's; others below); none: undefined. */
function metricsOutsOf(flags: FlagValues): MetricsOutput[] | undefined {
  const typed = flags.typed("out");
  const outs = flags.all("out").filter((v) => !isSamplesOut(v)).flatMap((v) => k6Output(typed, v));
  if (outs.length === 0) return undefined;
  const file = outs.find((v) => !isMetricsOut(v));
  if (file !== undefined) {
    throw new UsageError(
      `${typed} ${file}: run writes its results to --out-dir; ${typed} takes KIND=URL, e.g. ` +
        `${typed} prometheus-remote-write=http://127.0.0.1:9090/api/v1/write or ${typed} otlp=http://127.0.0.1:4318`,
    );
  }
  return parseMetricsOuts(typed, outs);
}

/** k6's output `value` as loadlab's: its Prometheus remote write at k6's URL; its web dashboard, none. */
function k6Output(typed: string, value: string): string[] {
  const [kind, arg] = value.split(/=(.*)/s, 2);
  if (kind === "experimental-prometheus-rw") {
    const url = arg || Deno.env.get("K6_PROMETHEUS_RW_SERVER_URL") || "http://localhost:9090/api/v1/write";
    return [`prometheus-remote-write=${url}`];
  }
  if (kind !== "web-dashboard") return [value];
  console.error(
    `${typed} ${value}: ignored: loadlab's live page is --serve, and report.html is in --out-dir`,
  );
  return [];
}

/** No experiment, or more than one (`demo` is given its preset by the caller, so any other is extra). */
function positionalsProblem(positionals: string[], command: string): UsageError {
  if (positionals.length === 0) {
    return new UsageError("no experiment given; e.g. loadlab run study.yaml or loadlab run preset:demo");
  }
  if (positionals[0] === "-") {
    return new UsageError("-: a script runs from a file, not stdin (k6's run -): save it");
  }
  if (command === "demo") {
    return new UsageError(
      `unexpected argument "${positionals[1]}"; demo runs preset:demo (for a file: loadlab run FILE)`,
    );
  }
  return new UsageError(`one experiment at a time, got ${positionals.map((p) => `"${p}"`).join(", ")}`);
}

/** `--segment` and `--start-at` (only with a segment: a lone experiment has nothing to line up with). */
function segmentOf(flags: FlagValues): Pick<RunArgs, "segment" | "startAtEpochMs"> {
  const segment = parseSegment(flags.text("segment"));
  const startAtEpochMs = parseStartAt(flags.text("start-at"));
  if (startAtEpochMs !== undefined && segment === undefined) {
    throw new UsageError("--start-at lines up the shards of a split load: give --segment I/N with it");
  }
  return defined({ segment, startAtEpochMs });
}

/** `target=a,load=b` (possibly repeated) into lists per key. */
function parseOnly(values: string[]): { target?: string[]; load?: string[] } {
  const only: { target?: string[]; load?: string[] } = {};
  for (const pair of values.flatMap((v) => v.split(","))) {
    const m = /^(target|load)=(.+)$/.exec(pair.trim());
    if (!m) {
      throw new UsageError(
        `--only "${pair}": write target=NAME or load=NAME, e.g. --only target=direct,load=burst`,
      );
    }
    (only[m[1] as "target" | "load"] ??= []).push(m[2]);
  }
  return only;
}

/** `NAME=URL` pairs into a record; a reserved word as NAME is refused (`__proto__` would vanish). */
function parseTargets(values: string[]): Record<string, string> {
  const targets: Record<string, string> = {};
  for (const value of values) {
    const m = /^([^=]+)=(https?:\/\/.+)$/.exec(value);
    if (!m) {
      throw new UsageError(`--target "${value}": write NAME=URL, e.g. --target mine=http://127.0.0.1:3000`);
    }
    if (RESERVED_KEYS.has(m[1])) {
      throw new UsageError(
        `--target "${value}": "${m[1]}" is a reserved word, not a target name; use a name from the file`,
      );
    }
    targets[m[1]] = m[2];
  }
  return targets;
}
