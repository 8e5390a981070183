/**
 * @module
 * An Artillery script as the experiment it describes, every problem named at the script's own path.
 */
import { durationMsOf, MAX_DURATION_MS } from "../../validation/duration.ts";
import {
  ArtilleryError,
  type Collector,
  join,
  nonNegative,
  problem,
  rejectUnknownKeys,
  secondsToDuration,
} from "./common.ts";
import { isRecord } from "../../validation/json_document.ts";
import { allWsScenarios, convertWsScenarios } from "./ws.ts";
import { captureNames, convertScenarios, uniqueName } from "./flow.ts";
import { listOrigin, type Origin, type Origins, originTable, tagOrigin } from "./paths.ts";
import { endpointNaming, type FlowContext, scalarMap, type Variables } from "./request.ts";
import { deepMerge } from "../overrides.ts";

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
  thresholds: "config.ensure",
};

const CONFIG_KEYS = "target phases http variables defaults ensure plugins environments payload".split(" ");

/** True for an Artillery script: a `config` mapping with `target` or `phases`, and a `scenarios` list. */
export function isArtilleryScript(doc: unknown): boolean {
  if (!isRecord(doc) || !isRecord(doc.config) || !Array.isArray(doc.scenarios)) return false;
  return doc.config.target !== undefined || doc.config.phases !== undefined;
}

/** `artillery run`'s flags as typed: `-e`'s environment, `-t`'s target, `--overrides` and `-v`'s JSON. */
export type ArtilleryRunFlags = Partial<Record<"environment" | "target" | "overrides" | "variables", string>>;

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
  if (!isRecord(environment) && (name ?? environments) !== undefined) {
    out.warnings.push(
      name === undefined
        ? "config.environments: not applied (as `artillery run` without -e); the base config runs"
        : `environment ${name} is set but is not defined in the script: the base config runs`,
    );
  }
  const config = isRecord(environment) ? deepMerge(base, environment) : base;
  if (flags.target !== undefined) config.target = flags.target;
  const script = deepMerge({ ...doc, config }, json("overrides"));
  return flags.variables === undefined
    ? script
    : deepMerge(script, { config: { variables: json("variables") } });
}

/**
 * The experiment an Artillery script describes, with notes on differences that change no request (the CLI
 * prints them before the run, one line each), its issues and where each converted part came from (converted
 * path -> the script's path, paths.ts). Throws `ArtilleryError` only for what is no script.
 */
export function importArtillery(doc: unknown, opts: ArtilleryOptions = {}) {
  const origins: Origins = new WeakMap();
  const out: Collector = { issues: [], warnings: [], origins };
  if (isRecord(doc) && isRecord(doc.config)) doc = withRunFlags(doc, opts.artillery ?? {}, out);
  if (!isRecord(doc) || !isRecord(doc.config)) {
    throw new ArtilleryError([{
      path: "config",
      message: "missing: an Artillery script has config and scenarios",
    }]);
  }
  checkSections(doc, doc.config, out);
  const experiment = allWsScenarios(doc.scenarios)
    ? wsExperiment(doc.config, doc.scenarios as unknown[], opts, out)
    : httpExperiment(doc, doc.config, opts, out);
  tagOrigin(origins, experiment, { at: "(root)", keys: ROOT_ORIGINS });
  return { experiment, notes: out.warnings, issues: out.issues, origins: originTable(experiment, origins) };
}

/** An http script's experiment: one target, its scenarios as flows, its phases as one `rate` load. */
function httpExperiment(
  doc: Record<string, unknown>,
  config: Record<string, unknown>,
  opts: ArtilleryOptions,
  out: Collector,
): Record<string, unknown> {
  const target = parseTarget(config.target, out);
  const payload = convertPayload(config.payload, out);
  const ctx = flowContext(config, doc.scenarios, target, payload?.fields ?? [], out);
  const load = convertPhases(config.phases, out);
  const timeout = httpTimeout(config.http, out);
  if (timeout) load.timeout = timeout;
  const flows = convertScenarios(doc.scenarios, ctx, out);
  // Held to loadlab's longest duration: thinks each within it may add up past it.
  const longestMs = longestSessionMs(flows, timeout ? durationMsOf(timeout) ?? 0 : ARTILLERY_TIMEOUT_MS);
  load.gracefulStop = `${Math.min(longestMs, MAX_DURATION_MS)}ms`;
  const thresholds = ensureThresholds(config, out);
  // Set in place, not copied: each flow keeps the tag naming its scenario.
  if (payload) { for (const flow of flows) Object.assign(flow, { data: "payload" }); }
  const experiment: Record<string, unknown> = {
    ...imported(opts, "Artillery script", ctx.origin, load),
    flows,
  };
  if (payload) experiment.data = { payload: payload.source };
  if (thresholds.length === 0) return experiment;
  const expressions = thresholds.map((t) => t.expression);
  experiment.thresholds = tagOrigin(
    out.origins,
    expressions,
    listOrigin("config.ensure", thresholds.map((t) => t.at)),
  );
  return experiment;
}

/** Checks the script's own keys, its config's and its plugins before either engine's conversion. */
function checkSections(doc: Record<string, unknown>, config: Record<string, unknown>, out: Collector): void {
  rejectUnknownKeys(doc, "", ["config", "scenarios"], out);
  rejectUnknownKeys(config, "config", CONFIG_KEYS, out);
  checkPlugins(config.plugins, out);
}

/** The thresholds of `config.ensure` and then of `config.plugins.ensure`. */
function ensureThresholds(config: Record<string, unknown>, out: Collector): Threshold[] {
  const plugins = isRecord(config.plugins) ? config.plugins : {};
  return [
    ...convertEnsure(config.ensure, "config.ensure", out),
    ...convertEnsure(plugins.ensure, "config.plugins.ensure", out),
  ];
}

/** An `engine: ws` script: one `rate` load whose arrivals are WebSocket connections (artillery_ws.ts). */
function wsExperiment(
  config: Record<string, unknown>,
  scenarios: unknown[],
  opts: ArtilleryOptions,
  out: Collector,
): Record<string, unknown> {
  const target = typeof config.target === "string" && /^wss?:\/\//i.test(config.target)
    ? new URL(config.target)
    : undefined;
  if (target === undefined) {
    problem(out, "config.target", "engine: ws needs a ws:// or wss:// target");
  }
  for (const key of ["payload", "variables", "defaults", "http", "ensure"]) {
    if (config[key] !== undefined) {
      problem(out, `config.${key}`, "not converted for engine: ws scenarios");
    }
  }
  const load = convertPhases(config.phases, out);
  const part = target ? convertWsScenarios(scenarios, target, out) : { ws: {} };
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
  if (typeof target !== "string" || !/^https?:\/\//i.test(target)) {
    return problem(
      out,
      "config.target",
      target === undefined
        ? "missing: the base URL such as http://127.0.0.1:8080"
        : `expected an http(s) URL, found ${JSON.stringify(target)}`,
    );
  }
  return new URL(target);
}

/** Plugins loadlab honours: `ensure` switches the checks on, `metrics-by-endpoint` is always on. */
function checkPlugins(plugins: unknown, out: Collector): void {
  if (plugins === undefined) return;
  if (!isRecord(plugins)) return problem(out, "config.plugins", "expected a mapping of plugin names");
  for (const name of Object.keys(plugins)) {
    if (name === "ensure" || name === "metrics-by-endpoint") continue;
    problem(out, `config.plugins.${name}`, "Artillery plugins do not run in loadlab");
  }
}

function httpTimeout(http: unknown, out: Collector): string | undefined {
  if (http === undefined) return undefined;
  if (!isRecord(http)) return problem(out, "config.http", "expected a mapping such as {timeout: 10}");
  rejectUnknownKeys(http, "config.http", ["timeout"], out);
  return http.timeout === undefined ? undefined : secondsToDuration(http.timeout, "config.http.timeout", out);
}

/** Artillery's default `config.http.timeout` (10 s), also loadlab's default request timeout. */
const ARTILLERY_TIMEOUT_MS = 10_000;

/** The longest a session can last: its think times plus a timeout per request. */
function longestSessionMs(flows: ReturnType<typeof convertScenarios>, timeoutMs: number): number {
  const thinkMs = (think: unknown) => typeof think === "string" ? durationMsOf(think) ?? 0 : 0;
  const stepMs = (step: (typeof flows)[number]["steps"][number]) =>
    step === undefined ? 0 : "think" in step ? thinkMs(step.think) : timeoutMs;
  return Math.max(0, ...flows.map((flow) => flow.steps.reduce((ms, step) => ms + stepMs(step), 0)));
}

const PAYLOAD_KEYS = ["path", "fields", "order", "skipHeader"];

/** `config.payload` (one CSV file, a row per virtual user) as a loadlab data source. */
function convertPayload(payload: unknown, out: Collector) {
  if (payload === undefined) return undefined;
  const one = Array.isArray(payload) && payload.length === 1 ? payload[0] : payload;
  const path = Array.isArray(payload) ? "config.payload[0]" : "config.payload";
  if (!isRecord(one)) {
    return problem(out, "config.payload", "expected one payload {path, fields} (several are not supported)");
  }
  rejectUnknownKeys(one, path, PAYLOAD_KEYS, out);
  const fields = one.fields;
  if (typeof one.path !== "string" || !Array.isArray(fields) || !fields.every((f) => typeof f === "string")) {
    return problem(out, path, "a payload needs path (a CSV file) and fields (its column names)");
  }
  if (one.order !== undefined && one.order !== "random" && one.order !== "sequence") {
    problem(out, join(path, "order"), `expected random or sequence, found ${JSON.stringify(one.order)}`);
  }
  const source = {
    file: one.path,
    fields: fields as string[],
    order: one.order === "sequence" ? "sequential" : "random",
    ...(one.skipHeader === true ? { skipHeader: true } : {}),
  };
  // The source's keys are the payload's, but for its file (`path` in the script).
  const keys = { file: join(path, "path") };
  return {
    source: tagOrigin(out.origins, source, { at: path, keys, mirrors: true }),
    fields: fields as string[],
  };
}

/** What the scenarios' requests are converted against. */
function flowContext(
  config: Record<string, unknown>,
  scenarios: unknown,
  target: URL | undefined,
  dataFields: string[],
  out: Collector,
): FlowContext {
  const ctx: FlowContext = {
    origin: target?.origin ?? "http://127.0.0.1",
    basePath: target?.pathname.replace(/\/+$/, "") ?? "",
    defaultHeaders: {},
    variables: parseVariables(config.variables, out),
    runtimeNames: new Set([...dataFields, ...captureNames(scenarios)]),
    naming: endpointNaming(config.plugins, out),
  };
  ctx.defaultHeaders = defaultHeaders(config.defaults, ctx, out);
  return ctx;
}

function defaultHeaders(defaults: unknown, ctx: FlowContext, out: Collector): Record<string, string> {
  if (defaults === undefined) return {};
  if (!isRecord(defaults)) {
    return problem(out, "config.defaults", "expected a mapping such as {headers: {...}}", {});
  }
  rejectUnknownKeys(defaults, "config.defaults", ["headers"], out);
  if (defaults.headers === undefined) return {};
  return scalarMap(defaults.headers, "config.defaults.headers", ctx, out) ?? {};
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
    if (Array.isArray(v)) result.set(name, { listLength: v.length });
    else if (["string", "number", "boolean"].includes(typeof v)) {
      result.set(name, { value: v as string | number | boolean });
    } else {
      problem(out, join("config.variables", name), "expected a value or a list of values");
    }
  }
  return result;
}

/** Artillery metric name -> loadlab threshold metric, and whether it is a latency (gets "ms"). */
const METRICS: Record<string, { metric: string; latency: boolean }> = {
  "http.request_rate": { metric: "rps", latency: false },
  "http.requests": { metric: "requests", latency: false },
};
for (const agg of ["min", "max", "mean", "median", "p50", "p75", "p90", "p95", "p99", "p999"]) {
  METRICS[`http.response_time.${agg}`] = { metric: agg, latency: true };
}

/** `config.ensure`'s own keys and the loadlab threshold each value becomes. */
const ENSURE_KEYS: Record<string, (value: number) => string> = {
  min: (v) => `min < ${v}ms`,
  max: (v) => `max < ${v}ms`,
  median: (v) => `p50 < ${v}ms`,
  p95: (v) => `p95 < ${v}ms`,
  p99: (v) => `p99 < ${v}ms`,
  maxErrorRate: (v) => `errorRate <= ${v}%`,
};
const COMPARISON = /^\s*([A-Za-z_$][\w.$]*)\s*(<=|>=|==|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/;

function expression(name: string, op: string, value: number, path: string, out: Collector) {
  const known = METRICS[name];
  if (!known) {
    return problem(
      out,
      path,
      `metric "${name}" has no loadlab equivalent; use one of ${Object.keys(METRICS).join(", ")}`,
    );
  }
  return `${known.metric} ${op} ${value}${known.latency ? "ms" : ""}`;
}

function number(value: unknown, path: string, out: Collector): number | undefined {
  const n = typeof value === "string" ? Number(value) : value;
  if (typeof n === "number" && Number.isFinite(n)) return n;
  return problem(out, path, `expected a number, found ${JSON.stringify(value)}`);
}

/** One threshold expression and the script's path it was read from. */
export interface Threshold {
  expression: string;
  at: string;
}

function thresholdsForm(list: unknown, path: string, out: Collector): Threshold[] {
  if (!Array.isArray(list)) {
    return problem(out, path, "expected a list such as - http.response_time.p99: 250", []);
  }
  return list.flatMap((entry, i) => {
    const p = join(path, i);
    if (!isRecord(entry) || Object.keys(entry).length !== 1) {
      return problem(out, p, "expected one metric: value pair such as http.response_time.p99: 250", []);
    }
    const [name, raw] = Object.entries(entry)[0];
    const value = number(raw, join(p, name), out);
    const expr = value === undefined ? undefined : expression(name, "<", value, join(p, name), out);
    return expr ? [{ expression: expr, at: join(p, name) }] : [];
  });
}

function conditionsForm(list: unknown, path: string, out: Collector): Threshold[] {
  if (!Array.isArray(list)) {
    return problem(out, path, "expected a list such as - expression: http.response_time.p95 < 250", []);
  }
  return list.flatMap((entry, i) => {
    const p = join(path, i);
    if (!isRecord(entry) || typeof entry.expression !== "string") {
      return problem(out, join(p, "expression"), "missing: an expression such as p95 < 250", []);
    }
    rejectUnknownKeys(entry, p, ["expression", "strict"], out);
    if (entry.strict === false) {
      out.warnings.push(
        `${p}: optional check "${entry.expression}" (strict: false) never fails a run; not imported`,
      );
      return [];
    }
    const exprs: Threshold[] = [];
    for (const part of entry.expression.split(/\s+and\s+/)) {
      const m = COMPARISON.exec(part);
      if (!m) {
        problem(
          out,
          join(p, "expression"),
          `"${part.trim()}": only comparisons (metric < number) joined by "and" are supported`,
        );
        continue;
      }
      const expr = expression(m[1], m[2], Number(m[3]), join(p, "expression"), out);
      if (expr) exprs.push({ expression: expr, at: join(p, "expression") });
    }
    return exprs;
  });
}

/** Thresholds with their paths from `config.ensure` or `config.plugins.ensure`, per plugin-ensure. */
function convertEnsure(ensure: unknown, path: string, out: Collector): Threshold[] {
  if (ensure === undefined || ensure === null) return []; // `plugins: {ensure: }` only switches it on
  if (!isRecord(ensure)) {
    return problem(out, path, "expected a mapping such as {p99: 250, maxErrorRate: 1}", []);
  }
  rejectUnknownKeys(ensure, path, [...Object.keys(ENSURE_KEYS), "thresholds", "conditions"], out);
  const result: Threshold[] = [];
  for (const [key, threshold] of Object.entries(ENSURE_KEYS)) {
    const value = ensure[key] === undefined ? undefined : number(ensure[key], join(path, key), out);
    if (value !== undefined) result.push({ expression: threshold(value), at: join(path, key) });
  }
  if (result.some((t) => t.at === join(path, "maxErrorRate"))) {
    out.warnings.push(
      `${path}.maxErrorRate: loadlab's errorRate counts failed requests including 4xx/5xx responses; ` +
        `Artillery counts virtual users that hit a network error`,
    );
  }
  for (const [key, form] of [["thresholds", thresholdsForm], ["conditions", conditionsForm]] as const) {
    if (ensure[key] !== undefined) result.push(...form(ensure[key], join(path, key), out));
  }
  return result;
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
  const caps: Array<{ path: string; value: number }> = [];
  load.phases = phases.map((phase, i) => {
    const path = join("config.phases", i);
    if (!isRecord(phase)) {
      return problem(out, path, `expected a phase such as {duration: 60, arrivalRate: 10}`);
    }
    rejectUnknownKeys(phase, path, PHASE_KEYS, out);
    if (phase.maxVusers !== undefined) {
      const cap = phase.maxVusers;
      if (Number.isInteger(cap) && (cap as number) >= 1) {
        caps.push({ path: join(path, "maxVusers"), value: cap as number });
      } else problem(out, join(path, "maxVusers"), `expected a whole number >= 1, found ${cap}`);
    }
    const name = uniqueName(typeof phase.name === "string" ? phase.name : `phase ${i}`, used);
    return tagOrigin(out.origins, { name, ...phaseRate(phase, path, out) }, phaseOrigin(phase, path));
  });
  tagOrigin(
    out.origins,
    load.phases,
    listOrigin("config.phases", phases.map((_, i) => join("config.phases", i))),
  );
  const maxConnections = connectionCap(caps, phases.length, out);
  if (maxConnections !== undefined) load.maxConnections = maxConnections;
  const keys = {
    timeout: "config.http.timeout",
    ...(caps.length > 0 ? { maxConnections: caps[0].path } : {}),
  };
  return tagOrigin(out.origins, load, { at: "config.phases", keys });
}

/** Where a phase's keys came from: its duration and rate from `pause`, `arrivalRate` or `arrivalCount`. */
function phaseOrigin(phase: Record<string, unknown>, path: string): Origin {
  const from = ["pause", "arrivalCount"].find((key) => phase[key] !== undefined) ?? "arrivalRate";
  const keys: Record<string, string> = {
    duration: join(path, phase.pause !== undefined ? "pause" : "duration"),
    rate: join(path, from),
    rampTo: join(path, "rampTo"),
  };
  if (typeof phase.name === "string") keys.name = join(path, "name");
  return { at: path, keys };
}

/** Duration and rate of one phase: `pause`, `arrivalRate` (+ `rampTo`) or `arrivalCount`. */
function phaseRate(phase: Record<string, unknown>, path: string, out: Collector): Record<string, unknown> {
  if (phase.pause !== undefined) {
    for (const key of ["duration", "arrivalRate", "rampTo", "arrivalCount"]) {
      if (phase[key] !== undefined) {
        problem(out, join(path, key), "a pause phase has only pause");
      }
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
    if (count === undefined || ms === 0) return { duration };
    return { duration, rate: count / (ms / 1000) };
  }
  if (phase.arrivalRate === undefined) {
    problem(out, join(path, "arrivalRate"), "missing: arrivalRate, arrivalCount or pause");
    return { duration };
  }
  const rate = nonNegative(phase.arrivalRate, join(path, "arrivalRate"), out);
  const rampTo = phase.rampTo === undefined
    ? undefined
    : nonNegative(phase.rampTo, join(path, "rampTo"), out);
  return rampTo === undefined ? { duration, rate } : { duration, rate, rampTo };
}

/** Artillery caps virtual users per phase, loadlab connections per load: one connection per arrival. */
function connectionCap(caps: Array<{ path: string; value: number }>, phaseCount: number, out: Collector) {
  if (caps.length === 0) return undefined;
  const first = caps[0];
  for (const cap of caps.slice(1)) {
    if (cap.value !== first.value) {
      problem(
        out,
        cap.path,
        `loadlab caps connections for the whole load: every phase needs the same maxVusers ` +
          `(${first.path} is ${first.value}, this is ${cap.value})`,
      );
    }
  }
  if (caps.length < phaseCount) {
    out.warnings.push(`maxVusers ${first.value} (${first.path}) applies to every phase in loadlab`);
  }
  return first.value;
}
