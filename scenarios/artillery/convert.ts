/**
 * @module
 * An Artillery script as the experiment it describes, every problem named at the script's own path.
 */
import { durationMsOf, MAX_DURATION_MS } from "../../validation/duration.ts";
import {
  ArtilleryError,
  type ArtilleryRunFlags,
  type Collector,
  join,
  mapStrings,
  nonNegative,
  problem,
  rejectUnknownKeys,
  secondsToDuration,
} from "./common.ts";
import { isRecord } from "../../validation/json_document.ts";
import { allWsScenarios } from "./ws.ts";
import { captureNames, convertScenario, convertScenarios, uniqueName } from "./flow.ts";
import { listOrigin, type Origin, type Origins, originTable, tagOrigin } from "./paths.ts";
import { endpointNaming, type FlowContext, scalarMap, type Variables } from "./request.ts";
import { deepMerge } from "../overrides.ts";
import { readProcessor } from "./processor.ts";
import { DataFileError, readDataFile } from "../data_sources.ts";
import { rowViews } from "../../runner/data_rows.ts";
import { dirname, resolve } from "node:path";
import { cachePathOf, writeWhole } from "../../runner/script/cache_dir.ts";
import type { ArtilleryEnd } from "../../runner/script/artillery/metrics.ts";
import { hooksScript } from "../../runner/script/artillery/runtime.ts";

type Doc = Record<string, unknown>;

interface ArtilleryOptions {
  /** The script's file name: names the experiment (`cms.yml` -> `cms`) and appears in its description. */
  file?: string;
  /** `artillery run`'s flags, applied as Artillery applies them (`withRunFlags`). */
  artillery?: ArtilleryRunFlags;
}

/** The script's section each top-level part of the experiment is made from. */
const ROOT_ORIGINS = {
  targets: "config.target",
  flows: "scenarios",
  loads: "config.phases",
  data: "config.payload",
};

// includeFiles only bundles files for Artillery's cloud runs: a local run reads none of them.
const CONFIG_KEYS =
  "target phases http variables defaults ensure plugins environments payload processor includeFiles apdex tls"
    .split(" ");

/**
 * The script as `artillery run` applies its flags, in its order: `config.environments[-e]` merged into config
 * (an unknown name is Artillery's warning, the base config runs), `-t` over the target, `--overrides` merged
 * into the script (lists replaced), `-v`'s variables into `config.variables`.
 */
function withRunFlags(doc: Record<string, unknown>, flags: ArtilleryRunFlags, out: Collector) {
  const json = (key: "overrides" | "variables") => {
    try {
      const value = JSON.parse(flags[key] ?? "{}");
      if (isRecord(value)) return value;
    } catch { /* said below */ }
    return problem(out, `--${key} ${flags[key]}`, `expected a JSON object, e.g. '{"id": 1}'`, {});
  };
  const name = flags.environment, { environments, ...base } = doc.config as Record<string, unknown>;
  const environment = name !== undefined && isRecord(environments) ? environments[name] : undefined;
  const unread = name === undefined
    ? "config.environments: not applied (as `artillery run` without -e)"
    : `environment ${name} is set but is not defined in the script`;
  if (!isRecord(environment) && (name ?? environments) !== undefined) {
    out.warnings.push(`${unread}: the base config runs`);
  }
  const config = isRecord(environment) ? deepMerge(base, environment) : base;
  if (flags.target !== undefined) config.target = flags.target;
  const script = deepMerge({ ...doc, config }, json("overrides"));
  const variables = flags.variables === undefined ? {} : { config: { variables: json("variables") } };
  const run = deepMerge(script, variables);
  // `--solo`: one arrival in a second, whatever the phases; `--scenario-name`: that scenario alone.
  if (flags.solo) (run.config as Doc).phases = [{ duration: 1, arrivalCount: 1 }];
  const named = flags["scenario-name"];
  if (named !== undefined && Array.isArray(run.scenarios)) {
    // As there: the name itself or a regular expression it matches, of exactly one scenario.
    const matches = (s: unknown) => isRecord(s) && (s.name === named || RegExp(named).test(String(s.name)));
    const only = run.scenarios = run.scenarios.filter(matches);
    if (only.length !== 1) problem(out, `--scenario-name ${named}`, `names ${only.length} scenarios, not 1`);
  }
  return withEnvironment(run, flags, out);
}

const ENV_TEMPLATE = /\{\{\s*\$(?:(?:env|processEnvironment)\.([A-Za-z_]\w*)|environment)\s*\}\}/g;

/**
 * `{{ $env.NAME }}` (or `$processEnvironment.NAME`) and `{{ $environment }}` (`-e`'s name) filled in every
 * string, as Artillery fills them from its environment, `--dotenv`'s file under it; unset reads "undefined".
 * A template that is the whole value gives a number where it reads as one (a phase's rate).
 */
function withEnvironment(doc: Record<string, unknown>, flags: ArtilleryRunFlags, out: Collector) {
  const file = flags.dotenv === undefined ? {} : readDotenv(flags.dotenv, out);
  const fill = (text: string, path: string) =>
    text.replace(ENV_TEMPLATE, (_, name?: string) => {
      const set = name === undefined ? flags.environment : Deno.env.get(name) ?? file[name];
      if (set === undefined) {
        out.warnings.push(`${path}: ${name ? `$env.${name}` : "$environment"} is unset: "undefined" here`);
      }
      return set ?? "undefined";
    });
  return mapStrings(doc, "", (v, path) => {
    const filled = fill(v, path);
    return /^\s*\{\{[^}]*\}\}\s*$/.test(v) && /^\d+(\.\d+)?$/.test(filled) ? Number(filled) : filled;
  }) as Record<string, unknown>;
}

/** A dotenv file's `NAME=value` lines (quotes dropped; `#` comments and blank lines skipped). */
function readDotenv(path: string, out: Collector): Record<string, string> {
  try {
    const lines = Deno.readTextFileSync(path).split(/\r?\n/).map((l) => DOTENV_LINE.exec(l));
    const value = (text: string) => text.replace(/^(["'])(.*)\1$|\s+#.*$/, "$2");
    return Object.fromEntries(lines.filter((m) => m !== null).map((m) => [m[1], value(m[2])]));
  } catch (err) {
    return problem(out, `--dotenv ${path}`, `cannot read it: ${(err as Error).message}`, {});
  }
}
const DOTENV_LINE = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*?)\s*$/;

/**
 * The experiment an Artillery script describes, with notes on differences that change no request (the CLI
 * prints them before the run, one line each), its issues and where each converted part came from (converted
 * path -> the script's path, paths.ts). Throws `ArtilleryError` only for what is no script.
 */
export function importArtillery(doc: unknown, opts: ArtilleryOptions = {}) {
  const origins: Origins = new WeakMap();
  const out: Collector = { issues: [], warnings: [], origins };
  scriptEnd.rules.length = 0, scriptEnd.apdex = undefined;
  // `--config FILE`, as JSON the command line parsed: its keys merged over the script's first.
  if (isRecord(doc) && opts.artillery?.config) doc = deepMerge(doc, JSON.parse(opts.artillery.config));
  if (isRecord(doc) && isRecord(doc.config)) doc = withRunFlags(doc, opts.artillery ?? {}, out);
  if (!isRecord(doc) || !isRecord(doc.config)) {
    const message = "missing: an Artillery script has config and scenarios";
    throw new ArtilleryError([{ path: "config", message }]);
  }
  // Artillery reads no other top-level key (one holding YAML anchors, say): noted, not refused.
  for (const key of Object.keys(doc).filter((k) => !["config", "scenarios", "before", "after"].includes(k))) {
    out.warnings.push(`${key}: not read, as Artillery reads only config, scenarios, before and after`);
  }
  rejectUnknownKeys(doc.config, "config", CONFIG_KEYS, out);
  checkPlugins(doc.config.plugins, out);
  const experiment = allWsScenarios(doc.scenarios)
    ? wsExperiment(doc.config, doc.scenarios as unknown[], opts, out)
    : httpExperiment(doc, doc.config, opts, out);
  tagOrigin(origins, experiment, { at: "(root)", keys: ROOT_ORIGINS });
  return { experiment, notes: out.warnings, issues: out.issues, origins: originTable(experiment, origins) };
}

/** An http script's experiment: one target, its scenarios as flows, its phases as one `rate` load. */
function httpExperiment(doc: Doc, config: Doc, opts: ArtilleryOptions, out: Collector): Doc {
  const target = parseTarget(config.target, out);
  const dir = dirname(opts.file ?? ".");
  const payload = convertPayload(config.payload, dir, out);
  const processor = config.processor === undefined ? undefined : readProcessor(config.processor, dir, out);
  const ctx = flowContext(config, [doc.scenarios, doc.before], payload.fields, out, target);
  Object.assign(ctx, { processor: processor?.text, dir });
  for (const [name, rows] of payload.lists) ctx.variables.set(name, { list: rows, rows: true });
  const load = convertPhases(config.phases, out);
  const timeout = httpTimeout(config.http, out);
  if (timeout) load.timeout = timeout;
  // `tls.rejectUnauthorized: false` or `--insecure`: no certificate checked (an http target has none).
  if (isRecord(config.tls)) rejectUnknownKeys(config.tls, "config.tls", ["rejectUnauthorized"], out);
  const insecure = opts.artillery?.insecure ||
    isRecord(config.tls) && config.tls.rejectUnauthorized === false;
  if (insecure && target?.protocol === "https:") load.tls = { insecure: true };
  const flows = convertScenarios(doc.scenarios, ctx, out);
  // `before` and `after` run once around the load, in the session script, sharing their vars as there.
  const once = Object.fromEntries(
    (["before", "after"] as const).filter((k) => doc[k] !== undefined)
      .map((k) => [k, convertScenario(doc[k], 0, new Set(), ctx, out, k)?.steps]),
  );
  // Held to loadlab's longest duration: thinks each within it may add up past it.
  const longestMs = longestSessionMs(flows, timeout ? durationMsOf(timeout) ?? 0 : ARTILLERY_TIMEOUT_MS);
  load.gracefulStop = `${Math.min(longestMs, MAX_DURATION_MS)}ms`;
  const plugins = isRecord(config.plugins) ? config.plugins : {};
  // Artillery's ensure plugin reads config.ensure, else config.plugins.ensure: never both.
  const ensure = config.ensure === undefined ? "plugins.ensure" : "ensure";
  // As the apdex plugin: its counters when it is named, its score besides when config.apdex is given.
  const apdex = plugins.apdex === undefined ? undefined : [config.apdex, plugins.apdex].find(isRecord);
  const thresholdMs = Number(apdex?.threshold ?? 500);
  if (apdex !== undefined) scriptEnd.apdex = { thresholdMs, score: config.apdex !== undefined };
  // Artillery loads its ensure plugin only when config.plugins names it: else no check is judged.
  if (!("ensure" in plugins) && config.ensure !== undefined) {
    out.warnings.push("config.ensure: not judged, as Artillery judges it only with ensure in config.plugins");
  } else convertEnsure(config.ensure ?? plugins.ensure, `config.${ensure}`, out);
  // Set in place, not copied: each flow keeps the tag naming its scenario.
  if (payload.source) { for (const flow of flows) Object.assign(flow, { data: "payload" }); }
  const experiment: Doc = { ...imported(opts, "Artillery script", ctx.origin, load), flows };
  if (payload.source) experiment.data = { payload: payload.source };
  if ((processor || Object.keys(once).length > 0 || ctx.scripted) && out.issues.length === 0) {
    // A loadAll payload's rows are one list in the vars; a variable's list is drawn per virtual user.
    // Artillery puts the script's folder in every context.vars besides the variables (the target among them).
    const variables = Object.fromEntries([
      ["$dirname", resolve(dir)],
      ...[...ctx.variables].map(([k, v]) => [k, "value" in v ? v.value : v.rows ? v.list : v]),
    ]);
    const plan = { processor: processor?.file, origin: ctx.origin, variables, once, ends: ctx.expect?.ends };
    const file = hooksScript(plan, flows);
    experiment.script = payload.source ? { file, data: "payload" } : file;
    delete experiment.flows;
  }
  return experiment;
}

/** An `engine: ws` script: one `rate` load whose arrivals each run the scenario's flow of ws steps. */
function wsExperiment(config: Doc, scenarios: unknown[], opts: ArtilleryOptions, out: Collector): Doc {
  const ws = typeof config.target === "string" && /^wss?:\/\//i.test(config.target);
  const target = ws ? new URL(config.target as string) : undefined;
  if (target === undefined) problem(out, "config.target", "engine: ws needs a ws:// or wss:// target");
  for (const key of ["payload", "variables", "defaults", "http", "ensure", "processor"]) {
    if (config[key] !== undefined) problem(out, `config.${key}`, "not converted for engine: ws scenarios");
  }
  const load = convertPhases(config.phases, out);
  if (scenarios.length > 1) {
    problem(out, "scenarios", "one engine: ws scenario is converted; split the others");
  }
  // Its one scenario converted as any (flow.ts), its steps sends, waits, thinks and loops.
  const ctx = { ...flowContext(config, scenarios, [], out), ws: `${target?.pathname}${target?.search}` };
  const flow = target ? convertScenario(scenarios[0], 0, new Set(), ctx, out) : undefined;
  const part = { flows: flow ? [flow] : [] };
  const url = target ? target.origin.replace(/^ws/i, "http") : "http://127.0.0.1";
  // Merged in place, not copied: the load keeps the tag naming config.phases.
  return imported(opts, "Artillery engine: ws script", url, Object.assign(load, part));
}

/** The experiment of a script (`what`) sending its one load to its one target at `url`. */
function imported(opts: ArtilleryOptions, what: string, url: string, load: object): Record<string, unknown> {
  // `cms.yml` -> `cms`; characters outside the experiment-name alphabet become `-`.
  const base = opts.file?.split(/[\\/]/).at(-1)?.replace(/\.(ya?ml|json)$/i, "");
  return {
    name: base?.replace(/[^A-Za-z0-9._-]+/g, "-") || "artillery",
    description: `${what}${opts.file ? ` ${opts.file}` : ""}, imported`,
    targets: { target: { url } },
    loads: { artillery: load },
  };
}

function parseTarget(target: unknown, out: Collector): URL | undefined {
  if (typeof target === "string" && /^https?:\/\//i.test(target)) return new URL(target);
  const found = target === undefined ? "missing: the base URL" : `expected an http(s) URL, found ${target}`;
  return problem(out, "config.target", `${found}, e.g. http://127.0.0.1:8080`);
}

/** Plugins loadlab reads (`ensure`, ...); another is a note, as Artillery runs without one it cannot load. */
function checkPlugins(plugins: unknown, out: Collector): void {
  if (plugins === undefined) return;
  if (!isRecord(plugins)) return problem(out, "config.plugins", "expected a mapping of plugin names");
  for (const name of Object.keys(plugins).filter((name) => !READ_PLUGINS.includes(name))) {
    out.warnings.push(`config.plugins.${name}: not run here (its metrics and reports are not made)`);
  }
}
const READ_PLUGINS = ["ensure", "metrics-by-endpoint", "expect", "apdex"];

function httpTimeout(http: unknown, out: Collector): string | undefined {
  if (http === undefined) return undefined;
  if (!isRecord(http)) return problem(out, "config.http", "expected a mapping such as {timeout: 10}");
  rejectUnknownKeys(http, "config.http", HTTP_KEYS, out);
  if (http.pool !== undefined) out.warnings.push("config.http.pool: one connection per virtual user here");
  // Artillery 2 reads no http.maxSockets (http.pool caps its sockets): nothing to say.
  if (http.extendedMetrics === true) {
    out.warnings.push("config.http.extendedMetrics: its metrics are not reported");
  }
  return http.timeout === undefined ? undefined : secondsToDuration(http.timeout, "config.http.timeout", out);
}

const HTTP_KEYS = ["timeout", "pool", "defaults", "extendedMetrics", "maxSockets"];

/** Artillery's default `config.http.timeout` (10 s), also loadlab's default request timeout. */
const ARTILLERY_TIMEOUT_MS = 10_000;

/** The longest a session can last: its think times plus a timeout per request. */
function longestSessionMs(flows: ReturnType<typeof convertScenarios>, timeoutMs: number): number {
  const thinkMs = (think: unknown) => typeof think === "string" ? durationMsOf(think) ?? 0 : 0;
  const stepMs = (step: (typeof flows)[number]["steps"][number]) =>
    step === undefined ? 0 : "think" in step ? thinkMs(step.think) : timeoutMs;
  return Math.max(0, ...flows.map((flow) => flow.steps.reduce((ms, step) => ms + stepMs(step), 0)));
}

// `cast` (true by default) types a value only where a whole template keeps its type: sent as text here.
const PAYLOAD_KEYS = ["path", "fields", "order", "skipHeader", "loadAll", "name", "delimiter", "cast"];

/** `config.payload`: a CSV file read a row per virtual user, and named `loadAll` files read whole. */
function convertPayload(payload: unknown, dir: string, out: Collector) {
  const lists: Array<[string, unknown[]]> = [];
  const fields: string[] = [];
  let source: Record<string, unknown> | undefined;
  (Array.isArray(payload) ? payload : payload === undefined ? [] : [payload]).forEach((one, i) => {
    const path = Array.isArray(payload) ? join("config.payload", i) : "config.payload";
    if (!isRecord(one)) return problem(out, path, "expected a payload {path, fields}");
    rejectUnknownKeys(one, path, PAYLOAD_KEYS, out);
    // A loadAll payload without fields is a list of each line's values, as Artillery reads it.
    const loadAll = one.loadAll === true, rowLists = loadAll && one.fields === undefined;
    const names = rowLists ? [] : one.fields;
    if (typeof one.path !== "string" || !Array.isArray(names) || !names.every((f) => typeof f === "string")) {
      return problem(out, path, "a payload needs path (a CSV file) and fields (its column names)");
    }
    const skipHeader = one.skipHeader === true ? { skipHeader: true } : {};
    const file = one.delimiter === undefined
      ? one.path
      : commaCopy(resolve(dir, one.path), one.delimiter, path, out);
    if (loadAll) {
      const csv = { fields: rowLists ? columnsOf(resolve(dir, file)) : names, ...skipHeader };
      const rows = readRows(resolve(dir, file), csv, join(path, "path"), out);
      const list = rowLists ? rows.map((row) => Object.values(row)) : rows;
      if (typeof one.name === "string") return lists.push([one.name, list]);
      return problem(out, join(path, "name"), "missing: loadAll names its list");
    }
    if (source) {
      source.file = joinedRows([source, { file, fields: names, ...skipHeader }], dir, out);
      if (one.order !== "sequence") source.order = "random";
      return void fields.push(...names); // the source's fields too
    }
    if (one.order !== undefined && one.order !== "random" && one.order !== "sequence") {
      problem(out, join(path, "order"), `expected random or sequence, found ${JSON.stringify(one.order)}`);
    }
    const order = one.order === "sequence" ? "sequential" : "random";
    fields.push(...names);
    // The source's keys are the payload's, but for its file (`path` in the script).
    const origin = { at: path, keys: { file: join(path, "path") }, mirrors: true };
    source = tagOrigin(out.origins, { file, fields, order, ...skipHeader }, origin);
  });
  return { source, fields, lists };
}

/**
 * Artillery draws a row of each payload per user: here one file of the payloads' rows side by side (row k of
 * each, a shorter file's rows repeated), whose fields are theirs in order; its path.
 */
function joinedRows(payloads: Array<Record<string, unknown>>, dir: string, out: Collector): string {
  const [a, b] = payloads.map((p) =>
    readRows(resolve(dir, String(p.file)), p as CsvSpec, "config.payload", out)
  );
  const rows = Array.from({ length: Math.max(a.length, b.length) }, (_, k) => [
    ...Object.values(a[k % a.length] ?? {}),
    ...Object.values(b[k % b.length] ?? {}),
  ]);
  const csv = rows.map((row) => row.map(csvField).join(",")).join("\n");
  payloads[0].skipHeader = false;
  const copy = `${cachePathOf("artillery", csv)}.csv`;
  writeWhole(copy, csv);
  return copy;
}

/** A copy of a CSV file split on `delimiter` (one character), written comma-separated as loadlab reads it. */
function commaCopy(file: string, delimiter: unknown, path: string, out: Collector): string {
  if (typeof delimiter !== "string" || delimiter.length !== 1) {
    return problem(out, join(path, "delimiter"), "expected one character such as ;", file);
  }
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch (err) {
    return problem(out, join(path, "path"), `${file} cannot be read: ${(err as Error).message}`, file);
  }
  const csv = text.split(/\r?\n/).map((line) => {
    // A quoted field stays as written (the delimiter inside it kept), valid CSV for loadlab too.
    const fields = [""];
    let quoted = false;
    for (const c of line) {
      if (c === '"') quoted = !quoted;
      if (c === delimiter && !quoted) fields.push("");
      else fields[fields.length - 1] += c;
    }
    return fields.map((v) => v.startsWith('"') ? v : csvField(v)).join(",");
  }).join("\n");
  const copy = `${cachePathOf("artillery", csv)}.csv`;
  writeWhole(copy, csv);
  return copy;
}

/** Names for the columns of a CSV file's first line (`c0`, `c1`, ...); none when it cannot be read. */
function columnsOf(file: string): string[] {
  try {
    const first = Deno.readTextFileSync(file).split(/\r?\n/, 1)[0];
    return first.split(",").map((_, k) => `c${k}`);
  } catch {
    return []; // readRows names the problem
  }
}

/** A value as a CSV field: quoted when it holds a quote or a comma. */
const csvField = (v: string) => /[",]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
type CsvSpec = { fields: string[]; skipHeader?: boolean };

/** A `loadAll` payload's rows as objects by field, or an issue naming its file's problem. */
function readRows(file: string, csv: CsvSpec, at: string, out: Collector) {
  try {
    const { columns, rows } = readDataFile(file, csv);
    return Array.from({ length: rows.count }, (_, r) => {
      const row = rowViews(rows, r);
      return Object.fromEntries(columns.map((c, k) => [c, new TextDecoder().decode(row[k])]));
    });
  } catch (err) {
    if (!(err instanceof DataFileError)) throw err;
    return problem(out, at, err.message, []);
  }
}

/** What the scenarios' requests are converted against. */
function flowContext(config: Doc, scenarios: unknown, fields: string[], out: Collector, target?: URL) {
  // A `strict: false` capture a template reads: the session script captures it, undefined when not found.
  const text = JSON.stringify(scenarios) ?? "";
  const read = (n: string) => RegExp(`\\{\\{\\s*${n.replace(/\W/g, "\\$&")}\\b`).test(text);
  const lenient = captureNames(scenarios, false).filter(read);
  const ctx: FlowContext = {
    origin: target?.origin ?? "http://127.0.0.1",
    basePath: target?.pathname.replace(/\/+$/, "") ?? "",
    defaultHeaders: {},
    variables: parseVariables(config.variables, out),
    runtimeNames: new Set([...fields, ...captureNames(scenarios), ...lenient]),
    lenient: new Set(lenient),
    naming: endpointNaming(config.plugins, out),
    expect: expectPlugin(isRecord(config.plugins) ? config.plugins.expect : undefined, out),
  };
  // Artillery's `{{ target }}` is config.target unless config.variables names one.
  if (!ctx.variables.has("target")) ctx.variables.set("target", { value: String(config.target) });
  // A failed expectation that ends the virtual user (reportFailuresAsErrors) ends a session script's session.
  ctx.scripted = ctx.expect?.ends || lenient.length > 0;
  // As Artillery: http.defaults.headers, when given, replace defaults.headers whole.
  const http = isRecord(config.http) && isRecord(config.http.defaults) && config.http.defaults.headers;
  const [defaults, at] = http ? [config.http, "config.http.defaults"] : [config, "config.defaults"];
  ctx.defaultHeaders = defaultHeaders((defaults as Doc).defaults, ctx, out, at);
  return ctx;
}

/** `config.plugins.expect`'s options (`reportFailuresAsErrors` refused unless false). */
function expectPlugin(options: unknown, out: Collector) {
  if (options === undefined || options === null) return options === null ? {} : undefined;
  const path = "config.plugins.expect";
  if (!isRecord(options)) {
    return problem(out, path, "expected a mapping such as {expectDefault200: true}", {});
  }
  rejectUnknownKeys(options, path, EXPECT_OPTIONS, out);
  const ends = options.reportFailuresAsErrors === true;
  return { expectDefault200: options.expectDefault200 === true || options.expectDefault200 === "true", ends };
}
const EXPECT_OPTIONS = ["expectDefault200", "outputFormat", "formatter", "useOnlyRequestNames"]
  .concat("reportFailuresAsErrors");

function defaultHeaders(defaults: unknown, ctx: FlowContext, out: Collector, at: string) {
  if (defaults === undefined) return {};
  if (!isRecord(defaults)) return problem(out, at, "expected a mapping such as {headers: {...}}", {});
  rejectUnknownKeys(defaults, at, ["headers", "think"], out);
  if (defaults.think !== undefined) out.warnings.push(`${at}.think: no jitter here`);
  if (defaults.headers === undefined || defaults.headers === null) return {}; // `headers:` left empty
  return scalarMap(defaults.headers, `${at}.headers`, ctx, out) ?? {};
}

function parseVariables(variables: unknown, out: Collector): Variables {
  const result: Variables = new Map();
  if (variables === undefined) return result;
  if (!isRecord(variables)) {
    return problem(out, "config.variables", "expected a mapping of names to values", result);
  }
  for (const [name, value] of Object.entries(variables)) {
    // A one-element list is one value, as Artillery would always pick it.
    const v = Array.isArray(value) && value.length === 1 ? value[0] : value;
    if (Array.isArray(v)) result.set(name, { list: v });
    else if (["string", "number", "boolean"].includes(typeof v)) result.set(name, { value: v as string });
    else problem(out, join("config.variables", name), "expected a value or a list of values");
  }
  return result;
}

/** `config.ensure`'s legacy keys: each checks `http.response_time.<key>` (whole ms, as Artillery cuts it). */
const LEGACY_KEYS = ["min", "max", "median", "p95", "p99"];
const COMPARISON = /^\s*([A-Za-z_$][\w.$]*)\s*(<=|>=|==|<|>)\s*(-?\d+(?:\.\d+)?|[A-Za-z_$][\w.$]*)\s*$/;

/** What the last import leaves to the run's end (runner/script/artillery/metrics.ts): its checks, apdex. */
export const scriptEnd: ArtilleryEnd = { rules: [] };

/** `metric op value` as a check of the run's end, read from `at`. */
function rule(metric: string, op: string, value: unknown, at: string, out: Collector, shown?: string): void {
  const n = nonNegative(value, at, out);
  if (n !== undefined) scriptEnd.rules.push({ metric, op, value: n, shown: shown ?? `${metric} ${op} ${n}` });
}

/** `thresholds:` (`- metric: value`, each a `<`) or `conditions:` (`- expression: a < 1 and b > 2`). */
function ensureList(list: unknown, path: string, out: Collector): void {
  const conditions = path.endsWith("conditions");
  const example = conditions ? "expression: http.response_time.p95 < 250" : "http.response_time.p99: 250";
  if (!Array.isArray(list)) return problem(out, path, `expected a list such as - ${example}`);
  list.forEach((entry, i) => {
    const p = join(path, i), at = join(p, "expression");
    if (!conditions && isRecord(entry) && Object.keys(entry).length === 1) {
      const [name, value] = Object.entries(entry)[0];
      return rule(name, "<", value, join(p, name), out);
    }
    if (!isRecord(entry) || typeof entry.expression !== "string") {
      return problem(out, conditions ? at : p, `expected one entry such as ${example}`);
    }
    rejectUnknownKeys(entry, p, ["expression", "strict"], out);
    if (entry.strict === false) {
      return out.warnings.push(
        `${p}: optional check "${entry.expression}" (strict: false) fails no run: left out`,
      );
    }
    for (const part of entry.expression.split(/\s+and\s+/)) {
      const m = COMPARISON.exec(part), shown = part.trim();
      // A metric on the right (`vusers.completed == vusers.created`) is read at the end too.
      const [metric, op, value] = m?.slice(1) ?? [];
      if (m && /^[A-Za-z_$]/.test(value)) scriptEnd.rules.push({ metric, op, value, shown });
      else if (m) rule(metric, op, Number(value), at, out);
      else problem(out, at, `"${shown}": only comparisons (metric < number) joined by "and" are supported`);
    }
  });
}

/** The checks of `config.ensure` or `config.plugins.ensure` (at `path`), as the ensure plugin reads them. */
function convertEnsure(ensure: unknown, path: string, out: Collector): void {
  if (ensure === undefined || ensure === null) return; // `plugins: {ensure: }` only switches it on
  // The plugin reads named keys only, so a list (`- statusCode: 200`) checks nothing there.
  if (Array.isArray(ensure)) {
    out.warnings.push(`${path}: a list: Artillery checks nothing in it`);
    return;
  }
  if (!isRecord(ensure)) return problem(out, path, "expected a mapping such as {p99: 250, maxErrorRate: 1}");
  rejectUnknownKeys(ensure, path, [...LEGACY_KEYS, "maxErrorRate", "thresholds", "conditions"], out);
  for (const key of LEGACY_KEYS.filter((k) => ensure[k] !== undefined)) {
    const n = typeof ensure[key] === "number" ? Math.trunc(ensure[key]) : ensure[key];
    rule(`http.response_time.${key}`, "<", n, join(path, key), out, `${key} < ${n}`);
  }
  const rate = ensure.maxErrorRate;
  if (rate !== undefined) {
    rule("maxErrorRate", "<=", rate, join(path, "maxErrorRate"), out, `maxErrorRate < ${rate}`);
  }
  for (const key of ["thresholds", "conditions"]) {
    if (ensure[key] !== undefined) ensureList(ensure[key], join(path, key), out);
  }
}

const PHASE_KEYS = ["name", "duration", "arrivalRate", "rampTo", "arrivalCount", "pause", "maxVusers"];

/** `config.phases` -> the `artillery` load (rate model, per-arrival connections, named phases). */
function convertPhases(phases: unknown, out: Collector): Record<string, unknown> {
  const load: Record<string, unknown> = { model: "rate", connection: "per-arrival" };
  if (!Array.isArray(phases) || phases.length === 0) {
    problem(out, "config.phases", "missing: at least one phase such as {duration: 60, arrivalRate: 10}");
    return load;
  }
  const used = new Set<string>();
  load.phases = phases.map((phase, i) => {
    const path = join("config.phases", i);
    if (!isRecord(phase)) {
      return problem(out, path, `expected a phase such as {duration: 60, arrivalRate: 10}`);
    }
    rejectUnknownKeys(phase, path, PHASE_KEYS, out);
    const name = uniqueName(typeof phase.name === "string" ? phase.name : `phase ${i}`, used);
    // As Artillery skips an arrival of this phase past maxVusers (vusers.skipped): dropped.
    const rate = { name, ...phaseRate(phase, path, out), maxBusy: phase.maxVusers };
    return tagOrigin(out.origins, rate, phaseOrigin(phase, path));
  });
  const phasePaths = phases.map((_, i) => join("config.phases", i));
  tagOrigin(out.origins, load.phases, listOrigin("config.phases", phasePaths));
  const keys: Record<string, string> = { timeout: "config.http.timeout" };
  // Every phase capped: no more connections than its largest cap.
  const caps = phases.map((p) => isRecord(p) && Number.isInteger(p.maxVusers) ? p.maxVusers as number : 0);
  if (Math.min(...caps) >= 1) {
    const top = Math.max(...caps);
    load.maxConnections = top;
    keys.maxConnections = join(join("config.phases", caps.indexOf(top)), "maxVusers");
  }
  return tagOrigin(out.origins, load, { at: "config.phases", keys });
}

/** Where a phase's keys came from: its duration and rate from `pause`, `arrivalRate` or `arrivalCount`. */
function phaseOrigin(phase: Record<string, unknown>, path: string): Origin {
  const from = ["pause", "arrivalCount"].find((key) => phase[key] !== undefined) ?? "arrivalRate";
  const keys: Record<string, string> = {
    duration: join(path, phase.pause !== undefined ? "pause" : "duration"),
    rate: join(path, from),
    rampTo: join(path, "rampTo"),
    perSecond: join(path, "rampTo"),
    maxBusy: join(path, "maxVusers"),
  };
  if (typeof phase.name === "string") keys.name = join(path, "name");
  return { at: path, keys };
}

/** Duration and rate of one phase: `pause`, `arrivalRate` (+ `rampTo`) or `arrivalCount`. */
function phaseRate(phase: Record<string, unknown>, path: string, out: Collector): Record<string, unknown> {
  if (phase.pause !== undefined) {
    for (const key of ["duration", "arrivalRate", "rampTo", "arrivalCount"]) {
      if (phase[key] !== undefined) problem(out, join(path, key), "a pause phase has only pause");
    }
    return { duration: secondsToDuration(phase.pause, join(path, "pause"), out), rate: 0 };
  }
  if (phase.duration === undefined) {
    return problem(out, join(path, "duration"), "missing: the phase length in seconds", {});
  }
  const duration = secondsToDuration(phase.duration, join(path, "duration"), out);
  if (duration !== undefined && durationMsOf(duration) === 0) {
    // Named here, at the script's own key; the engine would name the converted load's phase instead.
    return problem(out, join(path, "duration"), "must be > 0 seconds, e.g. duration: 60", {});
  }
  if (phase.arrivalCount !== undefined) {
    if (phase.arrivalRate !== undefined || phase.rampTo !== undefined) {
      problem(out, join(path, "arrivalCount"), "give arrivalCount or arrivalRate, not both");
    }
    const count = nonNegative(phase.arrivalCount, join(path, "arrivalCount"), out);
    const ms = duration === undefined ? 0 : durationMsOf(duration) ?? 0;
    return count === undefined || ms === 0 ? { duration } : { duration, rate: count / (ms / 1000) };
  }
  // A ramp without arrivalRate ramps from 0, as Artillery's.
  if (phase.arrivalRate === undefined && phase.rampTo === undefined) {
    problem(out, join(path, "arrivalRate"), "missing: arrivalRate, arrivalCount or pause");
    return { duration };
  }
  const rate = nonNegative(phase.arrivalRate ?? 0, join(path, "arrivalRate"), out);
  if (phase.rampTo === undefined && !Number.isInteger(rate ?? 0)) {
    const why = "Artillery 2 stops before any load on a fraction here (its split of the rate over workers " +
      "asserts a whole number): give a whole number, or ramp (rampTo) from it";
    return problem(out, join(path, "arrivalRate"), why, { duration });
  }
  if (phase.rampTo === undefined) return { duration, rate };
  const rampTo = nonNegative(phase.rampTo, join(path, "rampTo"), out) ?? 0;
  const perSecond = rampTicks(rate ?? 0, rampTo, (durationMsOf(duration ?? "0s") ?? 0) / 1000);
  return { duration: `${perSecond.length}s`, rate, rampTo, perSecond };
}

/** Artillery's ramp (one worker's): each second's arrivals on the line from `rate` to `rampTo`, rounded. */
function rampTicks(rate: number, rampTo: number, seconds: number): number[] {
  const round = (x: number) => Math.floor(x) + (Math.round(x % 1) >= 1 ? 1 : 0);
  if (seconds === 1) return [round((rampTo + rate) / 2)];
  return Array.from(
    { length: Math.ceil(seconds) },
    (_, i) => round(((rampTo - rate) / (seconds - 1)) * i + rate),
  );
}
