/**
 * @module
 * ghz's options (its config file's keys, its flags' long names) as the `attack` flags they stand for, with
 * ghz's defaults; an option loadlab would run otherwise than ghz is refused (exit 2) naming it and the fix.
 */
import { UsageError } from "../usage_error.ts";
import { readFileCapped, readOrRefuse } from "../../system/read_capped.ts";
import { statOrNull } from "../../system/path_lookup.ts";
import { parse as parseToml } from "smol-toml";
import { parse as parseYaml } from "yaml";
import { GHZ_FORMATS, goMaps, SCHEDULE_KEYS } from "../../results/export/ghz/report.ts";
import { parseDurationMs } from "../flag_values.ts";
import { findMethod, type GrpcMethod, loadProtoFile, loadProtoset } from "../../runner/http/grpc/schema.ts";
import { reflectSchema } from "../../runner/http/grpc/reflection.ts";
import { decodeMessages } from "../../runner/http/grpc/message.ts";
import { splitCall } from "../../runner/http/grpc/call.ts";
import { quotePlaceholders } from "../../runner/http/grpc/message_template.ts";
import { isRecord, parseJsonDocument } from "../../validation/json_document.ts";
import { MAX_DURATION_MS } from "../../validation/duration.ts";
import type { GhzRun } from "../attack/command.ts";
import { GO_EXEC_FAILED, GoParseError, type GoPart, parseGo, runGo } from "./go_template.ts";

/** A config holds flags and one message's data; a message is capped at 4 MiB by default (--max-send). */
const MAX_CONFIG_BYTES = 16 * 2 ** 20;

const GO_DURATION = /^[-+]?(0|((\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h))+)$/;
const SUB_MS = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs)/g;
/** A number as Go's ParseUint and ParseInt read it in base 0 (kingpin's): 0x, 0b, 0o or 0 prefixes, `_`s. */
const GO_INTEGER = /^(0[xX](_?[\da-fA-F])+|0[bB](_?[01])+|0[oO](_?[0-7])+|0(_?[0-7])*|[1-9](_?\d)*)$/;
/** The text of a flag of Go's type, and its name. */
const FORMS: Record<string, [RegExp, string]> = {
  uint: [GO_INTEGER, "ParseUint"],
  int: [new RegExp(`^[-+]?${GO_INTEGER.source.slice(1)}`), "ParseInt"],
  duration: [GO_DURATION, "a duration"],
  schedule: [/^(const|step|line)$/, "one of const, step, line"],
};

/**
 * One of ghz's options, by its config file's key: Go's type, its short flag, ghz's default (`file`: its
 * config file's, where another), the attack flag it stands for, the fix where loadlab runs the default only.
 */
interface GhzOption {
  go: "uint" | "int" | "duration" | "schedule" | "bool" | "map" | "list" | "any" | "string";
  short?: string;
  standard?: string | number | boolean;
  file?: number;
  attack?: string;
  fix?: string;
  fileOnly?: true;
}

const TEMPLATES = "drop it: loadlab fills ghz's templates";
/** Options of one Go type and default with no short or attack flag, by their keys. */
const alike = (go: GhzOption["go"], keys: string, more: Omit<GhzOption, "go"> = {}) =>
  Object.fromEntries(keys.split(" ").map((key) => [key, { go, ...more }]));
/** Every option ghz has, in the order their attack flags go (`host`: `loadlab ghz`'s argument). */
export const GHZ_OPTIONS: Record<string, GhzOption> = {
  call: { go: "string", attack: "--call" },
  proto: { go: "string", attack: "--proto" },
  protoset: { go: "string", attack: "--protoset" },
  "import-paths": { go: "list", short: "i" },
  rps: { go: "uint", short: "r", standard: 0, attack: "-R" },
  cacert: { go: "string", attack: "--cacert" },
  cert: { go: "string", attack: "--cert" },
  key: { go: "string", attack: "--key" },
  cname: { go: "string", attack: "--sni" },
  output: { go: "string", short: "o", attack: "-o" },
  ...alike("bool", "skipTLS insecure async stream-dynamic-messages count-errors", { standard: false }),
  ...alike("uint", "load-start load-end concurrency-end stream-call-count skipFirst", { standard: 0 }),
  ...alike("schedule", "load-schedule concurrency-schedule", { standard: "const" }),
  ...alike("duration", "load-step-duration load-max-duration concurrency-step-duration keepalive"),
  ...alike("duration", "concurrency-max-duration stream-interval stream-call-duration"),
  ...alike("string", "authority name lb-strategy"),
  ...alike("map", "reflect-metadata tags"),
  "load-step": { go: "int", standard: 0 },
  concurrency: { go: "uint", short: "c", standard: 50 },
  "concurrency-start": { go: "uint", standard: 0, file: 1 },
  "concurrency-step": { go: "int", standard: 1, file: 0 },
  total: { go: "uint", short: "n", standard: 200 },
  timeout: { go: "duration", short: "t", standard: "20s" },
  duration: { go: "duration", short: "z" },
  "max-duration": { go: "duration", short: "x" },
  "duration-stop": { go: "string", standard: "close" },
  data: { go: "any", short: "d" },
  "data-file": { go: "string", short: "D" },
  binary: { go: "bool", short: "b", standard: false },
  "binary-file": { go: "string", short: "B" },
  metadata: { go: "map", short: "m" },
  "metadata-file": { go: "string", short: "M" },
  format: { go: "string", short: "O", standard: "summary" },
  connections: { go: "uint", standard: 1 },
  "connect-timeout": { go: "duration", standard: "10s" },
  cpus: { go: "uint" },
  // ghz's log of the run: loadlab's of its calls (a CSV row each).
  debug: { go: "string", attack: "--log" },
  ...alike("bool", "disable-template-data disable-template-functions", {
    standard: false,
    fix: TEMPLATES,
    fileOnly: true,
  }),
  "enable-compression": { go: "bool", short: "e", standard: false },
  ...alike("string", "max-recv-message-size max-send-message-size host", { fileOnly: true }),
};

/** An option's value: as given, else ghz's default. */
const option = (config: Record<string, unknown>, key: string) => config[key] ?? GHZ_OPTIONS[key].standard;

/** Go's type of a key of ghz's (a schedule is a string); a string for any other key. */
const goType = (key: string) => Object.hasOwn(GHZ_OPTIONS, key) ? GHZ_OPTIONS[key].go : "string";

/** The metadata names grpc-go 1.34 drops from a call's metadata: its own headers. */
const GRPC_RESERVED =
  /^(:.*|content-type|user-agent|te|grpc-(message(-type)?|encoding|status(-details-bin)?|timeout))$/i;

/** ghz's config file: JSON, or TOML or YAML by its extension, as ghz reads it. */
export function readConfig(path: string, flag: string): Record<string, unknown> {
  // As ghz's config reader: a path naming no file is none; the flags beside it run alone.
  const text = statOrNull(path) === null ? null : fileText(path, flag, "a JSON, TOML or YAML config file");
  if (text === null) console.error(`loadlab ghz: ${flag} ${path}: no such file; run without it, as ghz runs`);
  const kind = /\.toml$/i.test(path) ? "TOML" : /\.ya?ml$/i.test(path) ? "YAML" : "JSON";
  // Go's YAML is 1.1 (yes, no, on, off are booleans).
  const parse = { TOML: parseToml, YAML: (t: string) => parseYaml(t, { version: "1.1" }), JSON: JSON.parse };
  let config: unknown = {};
  try {
    if (text !== null) config = parse[kind](text);
  } catch (err) {
    const first = (err as Error).message.split("\n")[0];
    throw new UsageError(`${flag} ${path}: not ${kind} (${first})`);
  }
  if (!isRecord(config)) throw new UsageError(`${flag} ${path}: expected an object of ghz's options`);
  // Go's null leaves a field as it was (the option not given), but ghz parses a JSON duration's own.
  const none = (k: string) => config[k] === null && (kind !== "JSON" || goType(k) !== "duration");
  for (const key of Object.keys(config).filter(none)) delete config[key];
  for (const [key, value] of Object.entries(config).filter(([k]) => Object.hasOwn(GHZ_OPTIONS, k))) {
    const type = goType(key) === "schedule" ? "string" : goType(key);
    const text = (v: unknown) =>
      typeof v === "string" || (kind === "YAML" && /^(number|boolean)$/.test(typeof v));
    const fits: Record<string, boolean> = {
      uint: Number.isInteger(value) && (value as number) >= 0,
      int: Number.isInteger(value),
      bool: typeof value === "boolean",
      map: isRecord(value) && Object.values(value).every(text),
      list: Array.isArray(value) && value.every(text),
      duration: /^(string|number)$/.test(typeof value),
      string: text(value),
    };
    if (fits[type] === false) {
      const shown = typeof value === "number" ? String(value) : JSON.stringify(value);
      throw new UsageError(`${flag} ${path}: ${key} ${shown}: not Go's ${type}`);
    }
    if (type === "string") config[key] = String(value);
  }
  const data = dataError(kind, text ?? "", config.data ?? {});
  if (data !== undefined) throw new UsageError(`${flag} ${path}: data: ${data} (ghz's ${kind} config)`);
  // As ghz's config reader: Go's zero takes its default, as an absent key its own where not the flag's.
  for (const [key, { standard: was, file = was }] of Object.entries(GHZ_OPTIONS)) {
    if (config[key] === undefined ? file !== was : was !== undefined && isZero(config[key], 0)) {
      config[key] = file;
    }
  }
  return config;
}

/** ghz's check of a config's data as Go decodes it (YAML's nested maps fail Go's JSON encoder). */
function dataError(kind: string, text: string, data: unknown): string | undefined {
  const nested = (v: unknown): boolean => isRecord(v) || (Array.isArray(v) && v.some(nested));
  if (kind === "TOML" && /^\s*\[\[\s*"?data"?\s*\]\]/m.test(text)) return "Unsupported type for Data";
  const yamlMap = "json: unsupported type: map[interface {}]interface {}";
  if (isRecord(data)) return kind === "YAML" && Object.values(data).some(nested) ? yamlMap : undefined;
  if (!Array.isArray(data)) return "Unsupported type for Data";
  if (data.length === 0) return "Data array must not be empty";
  return kind === "YAML" || !data.every(isRecord) ? "Data array contains unsupported type" : undefined;
}

/** A Go integer literal's value (GO_INTEGER's, a sign allowed): "0x1F" 31, "017" 15, "1_000" 1000. */
function goInteger(text: string): number {
  const [, sign, digits] = /^([-+]?)(.*)$/.exec(text.replaceAll("_", ""))!;
  const radix = /^0[xX]/.test(digits) ? 16 : /^0[bB]/.test(digits) ? 2 : /^0[oO]?\d/.test(digits) ? 8 : 10;
  const value = parseInt(radix === 10 || /^0\d/.test(digits) ? digits : digits.slice(2), radix);
  return sign === "-" ? -value : value;
}

/** A refusal of something ghz does that loadlab does not: exit 2, whatever exit ghz's own errors have. */
const refused = (message: string) => new UsageError(message, { exitCode: 2 });

/** The attack flags ghz's options stand for, and what ghz's run and report take besides them. */
export function ghzRun(
  config: Record<string, unknown>,
  reflectedMethod?: MethodData,
): GhzRun & { attack: string[]; page?: string } {
  for (const key of Object.keys(config).filter((k) => !Object.hasOwn(GHZ_OPTIONS, k))) {
    console.error(`loadlab ghz: --config: ${key} is not an option of ghz's; ignored, as ghz ignores it`);
    delete config[key];
  }
  for (const [key, value] of Object.entries(config)) {
    const [form, what] = FORMS[goType(key)] ?? [];
    if (form && value !== undefined && !form.test(String(value))) {
      // A number in Go's words: ghz's own error, its flag named.
      const go = `: strconv.${what}: parsing ${JSON.stringify(String(value))}: invalid syntax`;
      throw new UsageError(`--${key}${/^Parse/.test(what) ? go : ` ${JSON.stringify(value)}: not ${what}`}`);
    }
    if (/^u?int$/.test(goType(key)) && value !== undefined) config[key] = String(goInteger(String(value)));
    // Go's units under a millisecond, in loadlab's.
    const ms = (_: string, n: string, unit: string) =>
      `${+(Number(n) / (unit === "ns" ? 1e6 : 1e3)).toFixed(6)}ms`;
    if (form === GO_DURATION && value !== undefined) config[key] = String(value).replace(SUB_MS, ms);
  }
  const timeoutMs = msOf(config, "timeout");
  if (timeoutMs > 0 && timeoutMs < 1) throw refused(`--timeout ${config.timeout}: loadlab's least is 1ms`);
  for (const [key, { standard, fix }] of Object.entries(GHZ_OPTIONS)) {
    const value = config[key];
    if (!fix || value === undefined || value === standard || isZero(value, standard)) continue;
    throw refused(`--${key} ${JSON.stringify(value)}: not run by loadlab; ${fix}`);
  }
  // ghz's method names: a leading dot dropped (reported as given), then pkg.Service.Method or one slash.
  const [method, asGiven] = [String(config.call ?? "").replace(/^\./, ""), config.call];
  if (config.call !== undefined && !/^[^/]+\/[^/]*$|^[^/]*\.[^/]*$/.test(method)) {
    throw new UsageError(
      `--call ${JSON.stringify(config.call)}: method name must be package.Service.Method or ` +
        "package.Service/Method",
    );
  } else if (config.call !== undefined) config.call = method;
  if (typeof config.host !== "string" || config.host === "") {
    throw new UsageError(`--host (HOST:PORT) is missing, e.g. 127.0.0.1:50051`);
  }
  // grpc-go's dns:/// resolves the name; its --lb-strategy spreads calls over the addresses (an IP: one).
  // Without its port, dns:/// dials 443; a bare host no address: each call fails at once (no route to it).
  const [dns, bare] = [config.host.startsWith("dns:///"), /^(\[[\da-f:.]+\]|[^\s/:[\]]+)$/i];
  const host = dns
    ? config.host.slice(7).replace(bare, "$1:443")
    : config.host.replace(bare, "255.255.255.255:1");
  if (!/^(\[[\da-f:.]+\]|[^\s/:[\]]+):\d+$/i.test(host)) {
    throw refused(`${config.host}: not HOST:PORT, the one target loadlab dials; give its port, e.g. h:50051`);
  }
  if (config["lb-strategy"] !== undefined && !/^dns:\/\/\/([\d.]+|\[.*\]):/.test(config.host)) {
    throw refused(`--lb-strategy: loadlab calls one address; give dns:///IP:PORT or drop it`);
  } else if (!/^(pick_first|round_robin|)$/.test(String(config["lb-strategy"] ?? ""))) {
    throw refused("--lb-strategy: grpc-go 1.34 has pick_first and round_robin; ghz panics on others");
  }
  // As ghz: --proto is a .proto file, its path trimmed (an empty one is none).
  const proto = String(config.proto ?? "").trim();
  if (proto !== "" && !proto.endsWith(".proto")) {
    throw new UsageError(`--proto ${proto}: must have .proto extension`);
  }
  config.proto = proto === "" ? undefined : proto;
  const flags = [`${config.insecure === true ? "grpc" : "grpcs"}://${host}`];
  // ghz's --rps 0 is no limit; a step or line load schedule sets the rate, --rps ignored; beside a
  // concurrency schedule, the ticks its stepped workers wait for.
  const steps = concurrencySteps(config);
  const noRps = isZero(config.rps, 0) || option(config, "load-schedule") !== "const" || steps !== undefined;
  for (const [key, { attack }] of Object.entries(GHZ_OPTIONS)) {
    // As ghz: --proto over --protoset.
    const unread = (key === "rps" && noRps) || (key === "protoset" && config.proto !== undefined);
    if (attack && config[key] !== undefined && !unread) flags.push(attack, String(config[key]));
  }
  const format = String(option(config, "format"));
  let page: string | undefined;
  if (format === "html") {
    // ghz's HTML page of the run: loadlab's report.html of it, at -o, else a file printed after the run.
    if (config.output === undefined) flags.push("-o", page = temporary("loadlab-ghz-page-", ".html"));
    flags.splice(flags.indexOf("-o"), 1, "-q", "--report");
  } else if (!GHZ_FORMATS.includes(format as never)) {
    throw new UsageError(`--format ${format}: not one of ghz's formats, html,${GHZ_FORMATS}`);
  } else flags.push("-O", format);
  // ghz's defaults: its summary, 200 calls unless a duration, 50 in flight over 1 connection, 20 s per call.
  // As ghz: -x is a duration as -z is, which wins (the count is then ignored).
  const duration = given(config["max-duration"]) ? config["max-duration"] : config.duration;
  const timed = given(duration);
  const count = Number(option(config, "total"));
  const phases = schedulePhases(config, timed ? String(duration) : undefined);
  // Beside a concurrency schedule, the load schedule's rates (or --rps) are the ticks its workers wait for.
  const tickPhases = steps && (phases ?? (given(config.rps) ? `1ms@${Number(config.rps)}` : undefined))
    ?.split(",").map((phase) => phase.split("ms@").map(Number) as [number, number]);
  const loadPhases = steps ? undefined : phases;
  if (loadPhases !== undefined) flags.push("--phases", loadPhases);
  else if (timed) flags.push("-d", String(duration));
  else if (isZero(config.total, 0)) throw refused(`--total 0: ghz runs it without end; give -z D`);
  else flags.push("-n", String(option(config, "total")));
  // ghz's 0 is no timeout: loadlab's longest. ghz dials within --connect-timeout, apart from a call's -t.
  const noDial = "--connect-timeout 0: context deadline exceeded (ghz dials within it)";
  if (isZero(config["connect-timeout"], 0)) throw new UsageError(noDial);
  const [timeout, connect] = ["timeout", "connect-timeout"].map((k) => option(config, k))
    .map((value) => given(value) ? String(value) : "168h");
  flags.push("--timeout", timeout, "--connect-timeout", connect);
  // At -z's end ghz cuts the calls in flight (Canceled; "ignore": uncounted); "wait" lets them end.
  const stop = String(option(config, "duration-stop"));
  if (timed) flags.push("--graceful-stop", ["close", "ignore"].includes(stop) ? "0s" : timeout);
  // grpc-go 1.34's :authority: --cname's over TLS (the name it verifies), --authority's in cleartext only.
  const authority = config.insecure === true ? config.authority : config.cname;
  if (authority !== undefined) flags.push("-H", `host: ${authority}`);
  if (config.skipTLS === true) flags.push("-k");
  if (config["enable-compression"] === true) flags.push("--compress", "gzip");
  // ghz's --async: a count's calls all in flight; over -z, as many as the rate starts while one may last.
  const asyncTimed = "--async beside a duration without --rps: not run by loadlab; give --rps or drop it";
  if (config.async === true && timed && !flags.includes("-R")) throw refused(asyncTimed);
  const asyncMost = timed ? Math.ceil((Number(config.rps) * parseDurationMs(timeout, "-t")) / 1000) : count;
  const c = config.async === true ? Math.min(asyncMost, 100_000) : Number(option(config, "concurrency"));
  // ghz puts its calls in flight on its connections however many: loadlab's 1000 a connection, more of them.
  const asked = Number(option(config, "connections")) || 1;
  // As ghz: its -c is checked against --connections, whatever --async or a schedule makes of it.
  if (asked > Number(option(config, "concurrency"))) {
    throw new UsageError("number of connections cannot be greater than concurrency");
  }
  const connections = Math.max(asked, Math.ceil(c / 1000));
  const moreConnections = connections === asked
    ? undefined
    : `${connections} connections, not the ${asked} asked: ` +
      `loadlab keeps at most 1000 calls in flight on one (ghz keeps its ${c} on ${asked})`;
  // ghz's message caps: 2 GiB unless given (grpc-go's 4 MiB are not ghz's).
  flags.push("--max-receive", bytes(config["max-recv-message-size"], "--max-recv-message-size"));
  flags.push("--max-send", bytes(config["max-send-message-size"], "--max-send-message-size"));
  // ghz's --cpus is the cores its threads use: a worker isolate each, as far as the connections go round.
  if (Number(config.cpus) > 0) flags.push("-w", String(Math.min(Number(config.cpus), connections)));
  if (loadPhases !== undefined || (!timed && flags.includes("-R"))) {
    // Paced calls to a count (or phases) open connections as the rate needs them, up to ghz's.
    flags.push("--max-connections", String(connections), "--streams", String(Math.ceil(c / connections)));
  } else {
    const most = steps === undefined ? c : Math.max(connections, ...steps.map((s) => s.concurrency));
    flags.push("--connections", String(connections), "-c", String(most));
  }
  // As ghz: the working directory is an import path too; without a schema, the server's reflection.
  for (const dir of asList(config["import-paths"])) flags.push("-i", dir);
  if (config.proto !== undefined) flags.push("-i", ".");
  if (config.proto === undefined && config.protoset === undefined) flags.push("--reflect");
  const reflected = jsonObject(config["reflect-metadata"], "--reflect-metadata");
  for (const [name, value] of Object.entries(reflected)) flags.push("--reflect-header", `${name}: ${value}`);
  let known: MethodData | undefined;
  const callData = () => known ??= methodData(config) ?? reflectedMethod ?? kindNeeded(config, host);
  const call = new CallData(config, callData);
  // Unfilled beside filled text, as ghz sends it: each `{{` from a data column, as a template has no escape.
  let braces = false;
  const leftBraces = (text: string) => (braces = true, text.replaceAll("{{", "{{ LeftBraces }}"));
  const binary = binaryData(config, () => callData().method);
  // As ghz: -D's file over -d, -M's over -m.
  const fromFile = config["data-file"] !== undefined;
  const data = fromFile ? fileText(config["data-file"], "--data-file", "a JSON data file") : config.data;
  if (data === "") {
    throw refused(`--data-file ${config["data-file"]}: empty (ghz v0.93 panics); give a message`);
  }
  // ghz fills each streamed message's templates apart (as loadlab does); data without one it refuses.
  const dynamic = "--stream-dynamic-messages: default message provider cannot be used with static data";
  const templated = /\{\{.*\}\}/.test(JSON.stringify(data ?? ""));
  if (config["stream-dynamic-messages"] === true && !templated) throw new UsageError(dynamic);
  if (binary !== undefined) flags.push("-b", streamCallCount(binary, config));
  else if (data !== undefined) {
    const text = jsonText(data, fromFile ? "--data-file" : "--data", fromFile);
    // Unfilled, its `{{` as JSON's `\u007b{`: loadlab sends the text, not a template of it.
    const asWritten = (json: string) => json.replace(/\{(?=\{)/g, "\\u007b");
    // As ghz: a unary or server stream call's list fills each message apart (one that fails sent as written);
    // a client stream's (bidi's) list is one text, sent as written unless --stream-dynamic-messages.
    const each = (json: string) => {
      const list = json.trimStart().startsWith("[") && jsonOr(json);
      const streamed = () =>
        config["stream-dynamic-messages"] !== true && callData().method?.clientStreaming === true;
      if (!Array.isArray(list) || list.length < 2 || !json.includes("{{") || streamed()) {
        return asWritten(json);
      }
      return `[${list.map((m) => call.fill(goJson(m), "--data", leftBraces)).join(",")}]`;
    };
    // As ghz: a client stream's messages filled each apart draw their own .UUID, its metadata the call's.
    call.uuidEach = config["stream-dynamic-messages"] === true && text.includes(".UUID") &&
      callData().method?.clientStreaming === true;
    // As ghz: a client stream's list filled once a call is sent again past its end, the same values drawn.
    const again = streamCallCount(text, config) !== text && config["stream-dynamic-messages"] !== true &&
      (methodData(config) ?? reflectedMethod)?.method?.clientStreaming === true;
    // Its text as written (an action failed) keeps its escapes in the copies: taken apart after.
    const once = again && call.drawnOnce(() => {
      const filled = call.fill(text, "--data", each);
      return filled.includes("\\u007b{") ? undefined : streamCallCount(filled, config);
    });
    flags.push("-b", once || call.fill(streamCallCount(text, config), "--data", each));
    call.uuidEach = false;
  }
  const metadata = config["metadata-file"] !== undefined
    ? fileText(config["metadata-file"], "--metadata-file", "a JSON object of metadata")
    : config.metadata;
  const md = typeof metadata === "string" ? jsonOr(metadata) : metadata;
  const mdText = goJson(isRecord(md) ? md : metadata);
  // As ghz: an empty -M file is no metadata.
  const filled = !mdText ? undefined : call.fill(mdText, "--metadata", leftBraces, false);
  for (const [name, value] of Object.entries(jsonObject(filled, "--metadata"))) {
    if (!/^[\w.-]+$/.test(name)) {
      throw refused(`--metadata: "${name}": no HTTP/2 header name (grpc-go sends it); use [\\w.-]`);
    } else if (!GRPC_RESERVED.test(name)) {
      flags.push("-H", `${name}: ${value}`);
    } else console.error(`loadlab ghz: --metadata: ${name} is not sent, as grpc-go does not send it`);
  }
  if (call.numbered || braces || call.draws.length > 0) {
    // {{.RequestNumber}} or a draw: a row per call, in order (past a million calls the rows start over).
    const rows = !call.numbered && call.draws.length === 0
      ? 1
      : Math.min(1_000_000, timed ? Infinity : count);
    // A unary or server stream call's list is dealt a member a call: only its templated ones take a row
    // (every call does when its metadata is templated).
    const list = flags.includes("-b") ? jsonOr(flags[flags.indexOf("-b") + 1]) : undefined;
    const dealt = Array.isArray(list) ? list.map((m) => JSON.stringify(m).includes("{{")) : [];
    const apart = rows > 1 && dealt.includes(false) && !filled?.includes("{{") &&
      callData().method?.clientStreaming !== true;
    const file = requestNumbers(rows, call.draws, apart ? dealt : []);
    flags.push("--data-file", file, "--data-order", "sequential", "--data-when-done", "wrap");
  }
  const skipFirst = Number(option(config, "skipFirst"));
  if (flags.includes("-n") && skipFirst > count) {
    throw new UsageError(`--skipFirst ${config.skipFirst}: you cannot skip more requests than those run`);
  }
  const streamEndMs = msOf(config, "stream-call-duration");
  const streamEnd = { streamEndMessages: Number(option(config, "stream-call-count")), streamEndMs };
  // A load schedule to a count: rate phases that end at its last call.
  const total = phases !== undefined && !timed ? count : undefined;
  // ghz's paced calls to a count wait for a worker, however late: none is dropped.
  const lateBoundMs = (flags.includes("-n") && flags.includes("-R")) || total ? MAX_DURATION_MS : undefined;
  const tags = config.tags === undefined ? undefined : jsonObject(config.tags, "--tags");
  const streamIntervalMs = msOf(config, "stream-interval");
  const run = { tags, streamIntervalMs, streamEnd, lateBoundMs, concurrencySteps: steps, tickPhases };
  const labels = { ignoreCut: config["duration-stop"] === "ignore" };
  const options = reportOptions({ ...config, call: asGiven }, binary ? undefined : data, metadata);
  return { attack: flags, ...run, ...labels, options, moreConnections, page };
}

/** ghz's binary data (-B FILE, or -b's stdin, over -d) as the JSON of its messages. */
function binaryData(config: Record<string, unknown>, reflected: () => GrpcMethod | undefined) {
  const file = config["binary-file"];
  if (file === undefined && config.binary !== true) return undefined;
  const flag = file === undefined ? "--binary" : "--binary-file";
  const method = methodOf(config) ?? reflected();
  if (method === undefined) return undefined; // the run's own reflection names the error
  const bytes = file === undefined
    ? Deno.readFileSync("/dev/stdin")
    : fileBytes(file, flag, "a file of protobuf messages, each after its length as a varint (ghz's -B)");
  try {
    const type = method.requestType;
    if (bytes.length === 0) {
      throw new Error("no message in it, where ghz v0.93 panics (integer divide by zero)");
    }
    const messages = decodeMessages(type, bytes);
    return JSON.stringify(messages.length === 1 ? messages[0] : messages);
  } catch (err) {
    throw new UsageError(`${flag}: ${(err as Error).message} (binary data)`);
  }
}

/** The method --call names in --proto (or --protoset); undefined by the server's reflection. */
function methodOf(config: Record<string, unknown>) {
  if (config.proto === undefined && config.protoset === undefined) return undefined;
  const root = config.proto !== undefined
    ? loadProtoFile(String(config.proto), [...asList(config["import-paths"]), "."])
    : loadProtoset(String(config.protoset));
  return findMethod(root, String(config.call ?? ""));
}

/** The method ghz's call data reads; none: the empty data (a schema's error is the run's, named there). */
export type MethodData = { method?: GrpcMethod };

/** The call's method data as its schema file says; undefined by reflection. */
function methodData(config: Record<string, unknown>): MethodData | undefined {
  try {
    const method = methodOf(config);
    return method && { method };
  } catch {
    return {};
  }
}

/** A reflected call's data, needed before its data is filled: `method()` asks the server. */
export class CallKindNeeded extends Error {
  constructor(readonly method: () => Promise<MethodData>) {
    super("the call's kind is the server's reflection's");
  }
}

function kindNeeded(config: Record<string, unknown>, host: string): never {
  const origin = `${config.insecure === true ? "http" : "https"}://${host}`;
  const [caFile, sni] = [config.cacert, config.cname] as (string | undefined)[];
  const metadata = jsonObject(config["reflect-metadata"], "--reflect-metadata");
  throw new CallKindNeeded(async () => {
    try {
      const tls = { insecure: config.skipTLS === true, caFile, sni };
      const root = await reflectSchema(origin, 10_000, tls, metadata);
      return { method: findMethod(root, String(config.call)) };
    } catch {
      return {}; // the run's own reflection names the error
    }
  });
}

/**
 * A temporary CSV (removed at exit): `RequestNumber` and `DrawnI` per draw, a row per call of the first
 * `calls` taking one: each, or those of a list's `dealt` (templated) members, numbered as ghz numbers every
 * call (a worker's stripe of the rows starts at its share of the calls).
 */
function requestNumbers(calls: number, draws: Array<(requestNumber: number) => string>, dealt: boolean[]) {
  const path = temporary("loadlab-ghz-request-numbers-", ".csv");
  const quoted = (value: string) => /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
  const taking = dealt.flatMap((templated, k) => templated ? [k] : []);
  const number = (j: number) =>
    taking.length === 0 ? j : Math.floor(j / taking.length) * dealt.length + taking[j % taking.length];
  const line = (j: number) => [number(j), "{{", ...draws.map((draw) => quoted(draw(number(j))))].join(",");
  const head = ["RequestNumber", "LeftBraces", ...draws.map((_, k) => `Drawn${k}`)].join(",");
  const rows = Array.from({ length: calls }, (_, j) => j).filter((j) => number(j) < calls);
  Deno.writeTextFileSync(path, `${head}\n${rows.map(line).join("\n")}\n`);
  return path;
}

/** A temporary file's path, removed at exit. */
function temporary(prefix: string, suffix: string): string {
  const path = Deno.makeTempFileSync({ prefix, suffix });
  globalThis.addEventListener("unload", () => Deno.removeSync(path));
  return path;
}

/** ghz's schedule of the load or the concurrency; a `step` or `line` one checked as ghz checks it. */
function scheduleOf(config: Record<string, unknown>, of: "load" | "concurrency") {
  const kind = String(option(config, `${of}-schedule`));
  const [start, step, end] = ["start", "step", "end"].map((k) => Number(option(config, `${of}-${k}`)));
  // As ghz: a line's step is each second, whatever is given.
  const stepMs = kind === "line" ? 1000 : msOf(config, `${of}-step-duration`);
  // ghz's checks, in its words: a start other than the end, a step, a step duration.
  const fault = start === end
    ? `${of} start ${of === "load" ? "" : "start "}cannot equal ${of} end`
    : step === 0
    ? `invalid ${of} step`
    : stepMs > 0
    ? undefined
    : `invalid ${of} step duration`;
  if (fault && kind !== "const") {
    throw new UsageError(`--${of}-schedule ${kind}: ${fault} (its --${of}-* flags)`);
  }
  return { kind, start, step, end, stepMs, maxMs: msOf(config, `${of}-max-duration`) };
}

/** ghz's `step` or `line` load schedule as `--phases`, as its StepPacer; undefined for a constant rate. */
function schedulePhases(config: Record<string, unknown>, duration: string | undefined): string | undefined {
  const { kind, start, step, end, stepMs, maxMs } = scheduleOf(config, "load");
  if (kind === "const") return undefined;
  if (start === 0) throw refused("--load-start 0: ghz v0.93 panics (its pacer's start cannot be 0)");
  const totalMs = duration === undefined ? Infinity : parseDurationMs(duration, "--duration");
  const rateAt = (k: number) => Math.max(0, start + step * k);
  // Where the rate stops changing, and the rate it holds from there.
  let constMs = maxMs;
  let stop = end > 0 ? end : rateAt(Math.floor(maxMs / stepMs));
  if (maxMs === 0 && end > 0) {
    let k = 0;
    while ((step > 0 ? rateAt(k) <= end : rateAt(k) >= end) && k * stepMs < totalMs) k++;
    constMs = k * stepMs;
  } else if (maxMs === 0) [constMs, stop] = [totalMs, 0];
  const phases: string[] = [];
  // A count's calls left: its last phase ends at its last call's send.
  let left = duration === undefined ? Number(option(config, "total")) : Infinity;
  const phase = (ms: number, rate: number) => {
    const calls = Math.min(left, (ms * rate) / 1000);
    phases.push(`${calls === left ? ((left - 0.5) * 1000) / rate : ms}ms@${rate}`);
    left -= calls;
  };
  for (let k = 0, at = 0; at < Math.min(constMs, totalMs) && left > 0; k++, at += stepMs) {
    phase(Math.min(stepMs, constMs - at, totalMs - at), rateAt(k));
  }
  // As ghz's pacer: a max duration mid-step counts that step's part at the stop rate, the difference sent
  // at once as it ends (or, the stop rate lower, waited out).
  const jump = ((constMs % stepMs) * (stop - rateAt(Math.floor(constMs / stepMs)))) / 1000;
  const jumpMs = stop > 0
    ? Math.min(totalMs - constMs, Math.ceil(jump / 1000) || Math.round(-jump * 1000 / stop))
    : 0;
  if (jumpMs > 0 && left > 0) phase(jumpMs, Math.max(0, (jump * 1000) / jumpMs));
  if (constMs + jumpMs < totalMs && left > 0) {
    if (stop === 0 && left < Infinity) throw refused(`--load-schedule: its rate falls to 0 before its count`);
    phase(totalMs - constMs - jumpMs, stop);
  }
  return phases.join(",");
}

/** ghz's `step` or `line` concurrency schedule as the calls in flight from each instant. */
export function concurrencySteps(
  config: Record<string, unknown>,
): Array<{ atMs: number; concurrency: number }> | undefined {
  const { kind, start, step, end, stepMs, maxMs } = scheduleOf(config, "concurrency");
  if (kind === "const") return undefined;
  const up = step > 0;
  // As ghz's StepWorkerTicker: a step each tick until the end is reached, or the end at the max duration.
  const steps = [{ atMs: 0, concurrency: start }];
  for (let atMs = stepMs, n = start; steps.length <= 10_000; atMs += stepMs) {
    if (maxMs > 0 && atMs >= maxMs) {
      if (end > 0 && (up ? end >= n : end <= n)) steps.push({ atMs, concurrency: end });
      return steps;
    }
    if (maxMs === 0 && (up ? end > 0 && n >= end : n <= end)) return steps;
    n = Math.max(0, n + step);
    steps.push({ atMs, concurrency: n });
  }
  throw refused(`--concurrency-schedule: over 10,000 steps; give a nearer end or a longer step`);
}

/** `value` as Go's json.Marshal writes it, `<`, `>` and `&` escaped: a template in it reads them so. */
function goJson(value: unknown): string {
  const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  return typeof value === "string" ? value : JSON.stringify(value)?.replace(/[<>&\u2028\u2029]/g, escape);
}

/** `text`'s JSON value, or undefined where it is not JSON (a template's bare value before it is filled). */
function jsonOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The messages of ghz's `--stream-call-count N` (and `--stream-call-duration`): the data's, in turn. */
function streamCallCount(text: string, config: Record<string, unknown>): string {
  const counted = given(config["stream-call-count"]);
  const endMs = msOf(config, "stream-call-duration"), gapMs = msOf(config, "stream-interval");
  const most = endMs > 0 && gapMs > 0 ? Math.ceil(endMs / gapMs) : Infinity;
  if (endMs > 0 && gapMs === 0 && counted) {
    throw refused(`--stream-call-duration with no --stream-interval: not run by loadlab; give one`);
  }
  if (!counted && most === Infinity) return text;
  // A -D file's one message whose template writes a bare value is JSON only once filled: its text repeats.
  const parsed = jsonOr(text);
  const messages = parsed === undefined ? [text] : [parsed].flat().map((m) => JSON.stringify(m));
  const count = Math.min(counted ? Number(config["stream-call-count"]) : messages.length, most);
  if (!counted && count === messages.length) return text;
  return `[${Array.from({ length: count }, (_, k) => messages[k % messages.length]).join(",")}]`;
}

/** ghz's data as JSON, before any template is filled; a file's is read as Go's stream decoder reads it. */
function jsonText(value: unknown, flag: string, file = false): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    const end = /after JSON at position (\d+)/.exec((err as Error).message)?.[1];
    // ghz reads a file of one message as a template first: a value a template writes is JSON once filled.
    // Its actions' own quotes (printf "%d") are Go's, gone once filled.
    const actions = text.replace(/\{\{[^]*?\}\}/g, (action) => action.replaceAll('"', "`"));
    const filled = file && text[0] !== "[" ? parseJsonDocument(quotePlaceholders(actions)) : undefined;
    if (filled?.ok && isRecord(filled.value)) return text;
    if (!file || end === undefined || text[0] === "[") {
      throw new UsageError(`${flag}: not JSON (${(err as Error).message}); a template goes inside a string`);
    }
    console.error(`loadlab ghz: ${flag}: only its first JSON value is sent, as ghz reads the file`);
    return jsonText(text.slice(0, Number(end)), flag, file);
  }
  // ghz reads a list only at a file's first byte, and an Any's whole JSON as its value: a well-known type's
  // fails but Struct's, Value's and Empty's.
  const any = /"@type"\s*:\s*"[^"]*\/(google\.protobuf\.(?!(Struct|Value|Empty)")\w+)"/.exec(text)?.[1];
  const list = file && Array.isArray(data) && text[0] !== "[";
  const bad = list ? "a list after a space" : any && `an Any of ${any}`;
  if (bad) throw new UsageError(`${flag}: ${bad}: ghz cannot read it; loadlab ghz neither`);
  // As Go's JSON: a null message, alone or in a list, is the empty message. ghz decodes -d, and a list's
  // messages, into Go's maps and encodes them again, their keys sorted: of a oneof's members the last so.
  if (data === null) return "{}";
  if (file && !Array.isArray(data)) return text;
  if (typeof data !== "object") return goJson([data]).slice(1, -1); // a wrapper type's bare value
  return goJson(goMaps(Array.isArray(data) ? data.map((m) => m ?? {}) : data));
}

/** A message size as ghz reads it (`4194304`, `4MB`, `4MiB`), 2^31 - 1 when not given. */
function bytes(value: unknown, flag: string): string {
  if (value === undefined) return String(0x7fff_ffff);
  const m = /^(\d+)\s*(|[KMG]i?B?)$/i.exec(String(value).trim());
  if (m === null) throw new UsageError(`${flag} ${value}: a size in bytes, e.g. 4194304 or 4MiB`);
  const unit = m[2].toUpperCase().replace(/B$/, "");
  const scale = unit === "" ? 1 : (unit.endsWith("I") ? 1024 : 1000) ** ("KMG".indexOf(unit[0]) + 1);
  return String(Math.min(0x7fff_ffff, Number(m[1]) * scale));
}

/** A duration option in ms, ghz's default where not given; 0 for none. */
function msOf(config: Record<string, unknown>, key: string): number {
  const value = option(config, key);
  return given(value) ? parseDurationMs(String(value), `--${key}`) : 0;
}

/** A duration given and not ghz's 0 ("none"). */
const given = (value: unknown) => value !== undefined && !isZero(value, 0);

/** ghz's zero in any of its spellings ("0", "0s", 0) where the default is a zero. */
function isZero(value: unknown, standard: unknown): boolean {
  return (standard === 0 || standard === false) && /^0+(\.0*)?[a-zµ]*$|^false$/.test(String(value));
}

/** The bytes of the file `flag` names, or one line naming it, why and `what` to give instead. */
function fileBytes(path: unknown, flag: string, what: string): Uint8Array<ArrayBuffer> {
  const named = flag === "@" ? "@" : `${flag} `;
  return readOrRefuse(
    () => readFileCapped(String(path), MAX_CONFIG_BYTES),
    (why, cause) => new UsageError(`${named}${path}: cannot read: ${why}; give ${what}`, cause),
  );
}

/** `fileBytes`'s text as Go reads it: a byte-order mark kept (then no JSON), bytes not UTF-8 as U+FFFD. */
export function fileText(path: unknown, flag: string, what: string): string {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(fileBytes(path, flag, what));
}

/** What differs call to call before the run: the call's number, time and UUID, a random draw. */
const PER_CALL = /^(RequestNumber|UUID|Timestamp(Unix(Milli|Nano)?)?|newUUID|randomString|randomInt)$/;

/** ghz's template actions (Go's text/template over its call data) as loadlab's placeholders. */
class CallData {
  numbered = false;
  /** Actions run before the load, a column each: a value a call (`requestNumbers`'s rows). */
  draws: Array<(requestNumber: number) => string> = [];
  /** `.UUID` drawn at each place (a message filled apart) rather than once a call. */
  uuidEach = false;
  #once = false;
  constructor(private readonly config: Record<string, unknown>, private readonly method: () => MethodData) {}

  /** `fill`'s text with each random action drawn once a call; undefined when it gives none. */
  drawnOnce(fill: () => string | undefined): string | undefined {
    this.#once = true;
    const text = fill(); // one that throws ends the reading of the command line: nothing to restore
    [this.#once, this.draws] = [false, text === undefined ? [] : this.draws];
    return text;
  }

  /**
   * `text` filled as ghz fills it: Go parses it whole first (an error exits 1), then runs each action; one
   * that fails leaves the whole text as written. Data is a template only with an action at its top (an
   * `if` alone is sent as written); metadata without one is filled once, as the first call's.
   */
  fill(text: string, flag: string, unfilled: (text: string) => string, data = true): string {
    let parts: GoPart[];
    try {
      parts = parseGo(text);
    } catch (err) {
      throw err instanceof GoParseError ? new UsageError(`${flag}: ${err.message}`) : err;
    }
    const top = parts.some((p) => p.action);
    if (data && !top) return unfilled(text);
    const keep = (value: string) => value.includes("{{") ? unfilled(value) : value;
    // Each call's run of the whole text (its variables span its actions), the last one kept.
    let last: [number, string[]] = [-1, []];
    const run = (k: number) => {
      try {
        return runGo(parts, this.#dot(k)).map(keep);
      } catch (err) {
        if (k === 0 || err !== GO_EXEC_FAILED) throw err;
        return parts.map(() => ""); // a later call's failure (an index past a string's end): left empty
      }
    };
    const row = (k: number) => last[0] === k ? last[1] : (last = [k, run(k)])[1];
    try {
      if (!top) return row(0).join("");
      const held = parts.filter((p) => p.words !== undefined && this.#placeholder(p.words) === undefined);
      const first = held.length > 0 ? row(0) : []; // Go's execution fails here, or not at all
      // ghz's call data of the worker that runs the call: a placeholder, a whole action only.
      if (held.some((p) => p.uses.has("WorkerID"))) {
        throw refused(`${flag}: .WorkerID is filled as a call runs: an action alone, not in a block`);
      }
      const perCall = held.some((p) => [...p.uses].some((name) => PER_CALL.test(name)));
      // A lone .UUID beside one in a function is its row's too: one UUID a call.
      const rowUuid = held.some((p) => p.uses.has("UUID"));
      return parts.map((p, i) => {
        if (p.words === undefined) return p.text;
        const placeholder = rowUuid && p.words[0] === ".UUID" ? undefined : this.#placeholder(p.words);
        if (placeholder !== undefined || !perCall) return placeholder ?? first[i];
        // A column is the value JSON's string holds: its escapes (js's \u003C) read as ghz's JSON reads them.
        const value = (text: string) => text.includes("\\") ? jsonOr(`"${text}"`) as string ?? text : text;
        this.draws.push((k) => value(row(k)[i]));
        return `{{ Drawn${this.draws.length - 1} }}`;
      }).join("");
    } catch (err) {
      if (err === GO_EXEC_FAILED) return unfilled(text);
      throw err;
    }
  }

  /** A lone field or ghz function as loadlab's placeholder, filled as the call runs; undefined if not one. */
  #placeholder([head, ...args]: string[]): string | undefined {
    const ints = args.map((a) => /^-?\d+$/.test(a) ? Number(a) : NaN);
    if (ints.some(isNaN)) return undefined;
    if (!this.#once) {
      const [min, max] = [Math.max(0, ints[0]), ints[1] <= 0 ? 1 : ints[1]];
      if (head === "newUUID" && args.length === 0) return "{{ $uuid() }}";
      if (head === "randomString" && args.length === 1 && ints[0] > 0) {
        return `{{ $randomString(${ints[0]}) }}`;
      }
      if (head === "randomInt" && args.length === 2 && max > min) {
        return `{{ $randomNumber(${min},${max - 1}) }}`;
      }
    }
    if (head === ".RequestNumber" && args.length === 0) return this.numbered = true, "{{ RequestNumber }}";
    // As ghz: the call's time and UUID read once a call (a client stream's messages filled apart, each).
    const call = this.uuidEach ? "" : "request";
    const unit = { "": "rfc3339", Unix: "s", UnixMilli: "ms", UnixNano: "ns" }[head.slice(10)];
    if (args.length > 0) return undefined;
    if (head.startsWith(".Timestamp") && unit) return `{{ $now(${unit}${call && ", request"}) }}`;
    if (head === ".UUID") return `{{ $uuid(${call}) }}`;
    const name = this.config.name === undefined ? "" : `${this.config.name}:`;
    return head === ".WorkerID" ? `${name}{{ $worker() }}` : undefined;
  }

  /** ghz's call data of call `requestNumber`: time and UUID drawn once per row, alike in every text. */
  #dot(requestNumber: number): Record<string, unknown> {
    const data = this.#data ??= this.#callData();
    if (data.RequestNumber === requestNumber) return data;
    const now = Date.now();
    return Object.assign(data, {
      RequestNumber: requestNumber,
      UUID: crypto.randomUUID(),
      Timestamp: new Date(now - now % 1000).toISOString().replace(".000", ""),
      TimestampUnix: Math.floor(now / 1000),
      TimestampUnixMilli: now,
      TimestampUnixNano: now * 1e6,
    });
  }

  #data?: Record<string, unknown>;

  /** The call data every row shares (all but its number, time and UUID). */
  #callData(): Record<string, unknown> {
    const [service, method] = splitCall(String(this.config.call)) ?? [];
    const data = this.method;
    return {
      WorkerID: "",
      FullyQualifiedName: `${service}.${method}`,
      MethodName: method,
      ServiceName: service?.split(".").at(-1),
      // Read only when a template reads them: by reflection, the server is asked then.
      InputName: () => data().method?.requestType.name ?? "",
      OutputName: () => data().method?.responseType.name ?? "",
      IsClientStreaming: () => data().method?.clientStreaming ?? false,
      IsServerStreaming: () => data().method?.serverStreaming ?? false,
    };
  }
}

/** ghz's report's `options`, key for key as its reporter writes them (in ns; Go's empty left out). */
function reportOptions(config: Record<string, unknown>, data: unknown, metadata: unknown) {
  // As ghz: data a template leaves no JSON is none here.
  const json = (value: unknown) => goMaps(typeof value === "string" ? jsonOr(value) ?? undefined : value);
  const ns = (key: string) => Math.round(msOf(config, key) * 1e6);
  const schedule = (of: "load" | "concurrency") => {
    const { kind, start, end, step, stepMs, maxMs } = scheduleOf(config, of);
    const values = [kind, start, end, step, Math.round(stepMs * 1e6), Math.round(maxMs * 1e6)];
    return Object.fromEntries(SCHEDULE_KEYS.map((key, k) => [`${of}-${key}`, values[k]]));
  };
  const proto = config.proto === undefined ? undefined : String(config.proto);
  const dir = proto?.includes("/") ? proto.slice(0, proto.lastIndexOf("/")) || "/" : undefined;
  const paths = proto === undefined ? [] : [...(dir ? [dir] : []), ".", ...asList(config["import-paths"])];
  // As ghz: -x is the run's duration, and a duration's count Go's largest int32.
  const z = ns(given(config["max-duration"]) ? "max-duration" : "duration");
  const nonzero = (key: string) => Number(option(config, key)) || undefined;
  const options: Record<string, unknown> = {
    call: config.call,
    host: config.host,
    proto,
    protoset: config.protoset,
    "import-paths": paths.length > 0 ? paths : undefined,
    "enable-compression": config["enable-compression"] || undefined,
    ...Object.fromEntries(["cacert", "cert", "key", "cname"].map((k) => [k, config[k] || undefined])),
    skipTLS: config.skipTLS || undefined,
    insecure: config.insecure === true,
    authority: config.authority || undefined,
    rps: nonzero("rps"),
    ...schedule("load"),
    concurrency: nonzero("concurrency"),
    ...schedule("concurrency"),
    total: z > 0 ? 0x7fff_ffff : nonzero("total"),
    async: config.async || undefined,
    connections: nonzero("connections") ?? 1,
    duration: z || undefined,
    timeout: ns("timeout") || undefined,
    "dial-timeout": ns("connect-timeout") || undefined,
    keepalive: ns("keepalive") || undefined,
    data: json(data),
    binary: config.binary === true || config["binary-file"] !== undefined,
    metadata: json(metadata),
    CPUs: nonzero("cpus") ?? navigator.hardwareConcurrency,
    name: config.name || undefined,
    skipFirst: nonzero("skipFirst"),
    "count-errors": config["count-errors"] || undefined,
  };
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}

function asList(value: unknown): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value.map(String) : String(value).split(",");
}

/** ghz's metadata or tags: an object of names and values, or its JSON text. */
function jsonObject(value: unknown, flag: string): Record<string, string> {
  const parsed = typeof value === "string" ? jsonOr(value) : value ?? {};
  if (parsed === null) return {}; // Go's JSON null, a map of nothing
  if (isRecord(parsed) && Object.values(parsed).every((v) => typeof v === "string")) {
    return parsed as Record<string, string>;
  }
  throw new UsageError(`${flag}: expected a JSON object of names and text values, e.g. '{"x-user":"ann"}'`);
}
