/**
 * @module
 * `loadlab attack <url> [flags]` → a validated `AttackConfig` (a ws:// URL's flags into its `ws` config) and
 * where its results go, or one `UsageError` line (exit 2) naming the flag behind each config issue.
 */
import { defined } from "../../validation/defined.ts";
import { type AttackConfig, type AttackConfigInput, parseAttackConfig } from "../../runner/config.ts";
import { ConfigError } from "../../validation/config_error.ts";
import { TLS_OPTIONS } from "../../runner/http/tls/options.ts";
import { loadTlsMaterial, TlsFileError } from "../../runner/http/tls/material.ts";
import { ATTACK_FLAGS, OPTION_FLAGS, readAttackFlags, TLS_FLAGS, WS_FLAGS } from "./flags.ts";
import { type CommonOptionKey, OPTIONS, urlHostProblem } from "../../runner/config_fields.ts";
import { DASH_PATH, type FlagValues, optionValues, parseMetricsOuts } from "../flag_values.ts";
import { resolveLoad } from "./load_model.ts";
import { readOpenFileLimit } from "../../system/descriptors.ts";
import { FD_HEADROOM, portProblem, socketProblem, socketsOf } from "../../runner/socket_budget.ts";
import { readLocalPorts, unbindableAddress } from "../../system/ports.ts";
import { dataFileArgs, parseHeader, requestMixOf } from "./request_args.ts";
import { WS_OPTIONS } from "../../runner/http/ws/config.ts";
import { foldConcurrency, grpcArgs, HTTP_ONLY } from "./grpc_args.ts";
import type { GrpcSource } from "../../scenarios/grpc/calls.ts";
import { UsageError } from "../usage_error.ts";
import { abortOnFailArg, parseSegment, parseStartAt } from "../segment_args.ts";
import { ciFilesToProbe, resultsArgs } from "../ci_outputs.ts";
import { outputClobbersInput } from "../../system/output_file.ts";
import { statOrNull } from "../../system/path_lookup.ts";
import { isMetricsOut, type MetricsOutput } from "../../results/export/metrics_output.ts";
import { GHZ_FORMATS, type GhzFormat } from "../../results/export/ghz/report.ts";

export interface ParsedAttack {
  config: AttackConfig;
  output: ReturnType<typeof outputOf>;
  /** `--threshold` expressions as typed, e.g. `p99<200ms`; evaluated after the run. */
  thresholds: string[];
  /** `--abort-on-fail`: the thresholds are judged during the run too, not before `delayMs`. */
  abortOnFail?: { delayMs: number };
  /** A grpc:// run: where its calls come from, made into the request mix by `withGrpcCalls`. */
  grpc?: GrpcSource;
}

interface ParseAttackOptions {
  /** Soft RLIMIT_NOFILE; `undefined` reads it from the system, `null` skips the check. */
  openFileLimit?: number | null;
  /** Local ports of a source address per destination; `undefined` reads them, `null` skips the check. */
  localPorts?: number | null;
}

/** Parses the arguments after `attack`; throws `UsageError` on bad input, `HelpRequested` for `-h`. */
export function parseAttackArgs(argv: string[], options: ParseAttackOptions = {}): ParsedAttack {
  const flags = readAttackFlags(argv);
  const url = parseUrl(flags);
  const concurrency = foldConcurrency(flags.raw, flags, url);
  const data = dataFileArgs(flags, url);
  const ws = wsArgs(flags, url);
  const grpc = grpcArgs(flags, url, data);
  const requestMix = ws !== undefined || grpc !== undefined ? undefined : requestMixOf(flags, url, data);
  const limit = options.openFileLimit === undefined ? readOpenFileLimit() : options.openFileLimit;
  const load = resolveLoad(flags, limit === null ? undefined : limit - FD_HEADROOM);
  const config = toConfig({
    url: grpc?.url ?? url.href,
    ...load,
    requestMix,
    ...defined({ data, ws }),
    ...runInputOf(flags),
    ...grpc?.config,
    ...defined({ concurrency }),
  }, flags);
  checkSockets(config, limit, options.localPorts === undefined ? readLocalPorts() : options.localPorts);
  checkSourceAddresses(config);
  checkTlsFiles(config);
  return {
    config,
    output: outputOf(flags, config),
    thresholds: flags.all("threshold"),
    ...abortOnFailOf(flags),
    ...defined({ grpc: grpc?.source }),
  };
}

/** HTTP-only flags, refused with a ws:// URL: gRPC's, and the request's own. */
const WS_REFUSED = [...HTTP_ONLY, "method", "body", "body-file", "streams"];

/** The `ws` config of the flags for `url`, or undefined for an http(s) URL (which refuses ws flags). */
function wsArgs(flags: FlagValues, url: URL): AttackConfigInput["ws"] {
  const isWs = url.protocol === "ws:" || url.protocol === "wss:";
  if (!isWs) {
    const given = Object.values(WS_FLAGS).find((f) => flags.has(f.long));
    if (given) {
      throw new UsageError(`--${given.long} needs a ws:// or wss:// URL, e.g. ws://127.0.0.1:8080/ws/echo`);
    }
    return undefined;
  }
  const http = WS_REFUSED.find((f) => flags.has(f));
  if (http) {
    throw new UsageError(
      `--${http} is for HTTP; a ws:// run sends --ws-message (repeatable), e.g. --ws-message '{"op":"hi"}'`,
    );
  }
  const values = optionValues(flags, WS_OPTIONS, WS_FLAGS);
  const headers = Object.fromEntries(flags.all("header").map(parseHeader));
  return { ...values, match: matchOf(values.match as string | undefined), headers };
}

/** `echo`, `nth:N`, or `json:FIELD=VALUE` (a number, true or false read as such, else text). */
function matchOf(text: string | undefined): NonNullable<AttackConfigInput["ws"]>["match"] {
  if (text === undefined || text === "echo") return undefined;
  const nth = /^nth:(\d+)$/.exec(text);
  if (nth) return { kind: "nth", n: Number(nth[1]) };
  const json = /^json:([^=]+)=(.*)$/.exec(text);
  if (json) {
    const raw = json[2], bool = raw === "true" || raw === "false";
    const equals = bool ? raw === "true" : raw !== "" && !isNaN(Number(raw)) ? Number(raw) : raw;
    return { kind: "json", field: json[1], equals };
  }
  throw new UsageError(
    `--ws-match ${JSON.stringify(text)}: expected echo, nth:N (the N-th message after a send) ` +
      "or json:FIELD=VALUE",
  );
}

/** The config fields one flag each sets, besides the URL, the load and the requests. */
function runInputOf(flags: FlagValues) {
  if (flags.has("h2") && flags.has("h3")) throw new UsageError("--h2 and --h3 exclude each other: keep one");
  type Options = Partial<Pick<AttackConfigInput, CommonOptionKey>>;
  const options: Options = optionValues(flags, OPTIONS, OPTION_FLAGS);
  const tls = optionValues(flags, TLS_OPTIONS, TLS_FLAGS);
  return {
    ...options,
    protocol: flags.has("h3") ? "h3" as const : flags.has("h2") ? "h2" as const : options.protocol,
    tls: Object.keys(tls).length > 0 ? tls as AttackConfigInput["tls"] : undefined,
    intervalHistograms: flags.has("interval-histograms")
      ? flags.choice("interval-histograms", ["keep", "none"]) === "keep"
      : undefined,
    generatorWarmup: flags.has("no-generator-warmup") ? false : undefined,
    segment: parseSegment(flags.text("segment")),
    startAtEpochMs: parseStartAt(flags.text("start-at")),
  };
}

/** `--abort-on-fail` (cli/segment_args.ts) over the `--threshold`s, which it needs at least one of. */
function abortOnFailOf(flags: FlagValues): Pick<ParsedAttack, "abortOnFail"> {
  const abort = abortOnFailArg(flags);
  if (abort === undefined) return {};
  if (flags.all("threshold").length === 0) {
    throw new UsageError(
      '--abort-on-fail stops the run when a --threshold fails; add one, e.g. --threshold "p99<200ms"',
    );
  }
  return { abortOnFail: { delayMs: abort.delayMs ?? 0 } };
}

/** Unreadable or mismatched TLS files are a usage error before any load. */
function checkTlsFiles(config: AttackConfig): void {
  try {
    loadTlsMaterial(config.tls);
  } catch (err) {
    if (err instanceof TlsFileError) throw new UsageError(err.message, { cause: err });
    throw err;
  }
}

/** The one positional: an http(s), ws(s) or grpc(s) URL with a host, else a usage error with an example. */
function parseUrl({ raw: { positionals, values, spelled } }: FlagValues): URL {
  const example = "e.g. loadlab attack http://127.0.0.1:8080/ -c 10 -d 10s";
  const [long, taken] = [...values].find(([, v]) => v.some((text) => /^\w+:\/\//.test(text))) ?? [];
  const by = long
    ? ` (${spelled.get(long)} took ${taken?.at(-1)} as its value: give it one, or drop it)`
    : "";
  if (positionals.length === 0) throw new UsageError(`missing the target URL${by}; ${example}`);
  if (positionals.length > 1) {
    throw new UsageError(
      `one URL expected, got ${positionals.length} (${positionals.join(" ")}); ` +
        `for several paths use --mix "GET /path", ${example}`,
    );
  }
  const text = positionals[0];
  const url = URL.parse(text), part = urlHostProblem(text);
  if (part && /^(https?|wss?|grpcs?):/i.test(text)) throw new UsageError(`${JSON.stringify(text)}: ${part}`);
  if (!url || !/^(https?|wss?|grpcs?):$/.test(url.protocol) || url.hostname === "") {
    throw new UsageError(
      `${JSON.stringify(text)}: not an http(s), ws(s) or grpc(s) URL; write it with the scheme, ` +
        "e.g. http://127.0.0.1:8080/",
    );
  }
  return url;
}

/** Refuses, before the load, a crowd the open-file limit or the source addresses' ports cannot hold. */
function checkSockets(config: AttackConfig, limit: number | null, ports: number | null): void {
  const { open, sockets, whole, stage } = socketsOf(config);
  const flag = open ? "--max-connections" : stage !== undefined ? "--stages" : "-c";
  const part = config.segment ? ` (segment ${config.segment.index}/${config.segment.count}: ${sockets})` : "";
  const asked = stage === undefined
    ? `${flag} ${whole}${part}`
    : `--stages: stage ${stage + 1} (${whole} connections${part})`;
  const fix = stage === undefined ? flag : "a stage target of";
  const problem = socketProblem(sockets, limit, fix, config.segment?.count) ??
    portProblem(sockets, config.sourceAddresses?.length ?? 1, ports);
  if (problem) throw new UsageError(`${asked}: ${problem}`);
}

/** Refuses source addresses this host cannot send from, before the load. */
function checkSourceAddresses(config: AttackConfig): void {
  const unbindable = config.sourceAddresses ? unbindableAddress(config.sourceAddresses) : null;
  if (unbindable !== null) {
    throw new UsageError(
      `--source-addresses: cannot send from ${unbindable}; give addresses of this host (any 127.x.y.z on loopback)`,
    );
  }
}

/** The flag behind a config issue's path, as the user typed it, else its first spelling. */
function flagOf(path: string, flags: FlagValues): string | undefined {
  const fields = [path, /^[^.[]*(\.[^.[]*)?/.exec(path)![0], /^[^.[]*/.exec(path)![0]];
  const specs = fields.map((f) => ATTACK_FLAGS.filter((s) => s.config?.includes(f))).find((s) => s.length);
  if (specs === undefined) return undefined;
  const spec = specs.find((s) => flags.has(s.long)) ?? specs[0];
  return flags.has(spec.long) ? flags.typed(spec.long) : spec.short ? `-${spec.short}` : `--${spec.long}`;
}

/** Runs the shared zod validation; its issues become one line that names flags, not config paths. */
function toConfig(input: AttackConfigInput, flags: FlagValues): AttackConfig {
  try {
    return parseAttackConfig(input);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const lines = err.issues.map(({ path, message }) => `${flagOf(path, flags) ?? path}: ${message}`);
    throw new UsageError(`${lines.join("; ")}; see loadlab attack --help`, { cause: err });
  }
}

/**
 * The output flags, each field the flag of its name (`outFile` `-o`); `format` is `-O`, ghz's report, not
 * results.json; `files`, every file the run writes as `[flag, path]`, for the write probe before the load.
 */
function outputOf(flags: FlagValues, config: AttackConfig) {
  const format = formatOf(flags, config);
  const { outFile: out, metricsOut } = outValues(flags);
  // With -O, -o is where ghz writes its report (ghz's -o): results.json is not written then.
  const outFile = format === undefined ? out : undefined;
  const ghzFile = format === undefined ? undefined : out;
  const reportFile = flags.path("report");
  const results = resultsArgs(flags);
  const files: Array<[string, string | undefined]> = [
    [flags.typed("out"), outFile ?? ghzFile],
    ["--report", reportFile],
    ["--log", config.logFile],
    ...ciFilesToProbe(results),
  ];
  const clash = outputClobbersInput(files, [
    ["--body-file", flags.path("body-file")],
    ["--data-file", flags.path("data-file")],
  ]);
  if (clash) throw new UsageError(clash);
  if (config.logFile !== undefined && statOrNull(config.logFile)?.isFifo) {
    // Created with its header, then opened to append by every worker: the FIFO's reader sees its end at
    // the first close, and with no reader the first open waits for ever.
    throw new UsageError(
      `--log ${config.logFile}: is a FIFO, which the request log cannot be written to (it is opened and ` +
        `closed more than once); give a regular file`,
    );
  }
  return {
    json: flags.has("json"),
    outFile,
    ...defined({ format, ghzFile, metricsOut: metricsOut.length > 0 ? metricsOut : undefined }),
    reportFile,
    quiet: flags.has("quiet"),
    noLive: flags.has("no-live"),
    ...results,
    files,
  };
}

/** `-O`/`--format`: ghz's summary, json, pretty or csv report of a gRPC run; undefined without it. */
function formatOf(flags: FlagValues, config: AttackConfig): GhzFormat | undefined {
  if (!flags.has("format")) return undefined;
  const typed = flags.typed("format");
  if (config.grpc === undefined) {
    throw new UsageError(`${typed} is ghz's report of a gRPC run: give a grpc:// URL, or use --json`);
  }
  if (flags.has("json")) throw new UsageError(`${typed} and --json both choose what stdout holds; give one`);
  return flags.choice("format", GHZ_FORMATS);
}

/** `-o`/`--out` values: `KIND=URL` ones are metrics outputs, the last other one the results file. */
function outValues(flags: FlagValues): { outFile?: string; metricsOut: MetricsOutput[] } {
  const values = flags.all("out");
  const files = values.filter((v) => !isMetricsOut(v));
  const metrics = values.filter(isMetricsOut);
  const typed = flags.typed("out");
  if (files.includes("")) throw new UsageError(`${typed} "": empty path, e.g. ${typed} results.json`);
  if (files.includes("-")) throw new UsageError(`${typed} "-": ${DASH_PATH}, e.g. ${typed} results.json`);
  return { outFile: files.at(-1), metricsOut: parseMetricsOuts(typed, metrics) };
}
