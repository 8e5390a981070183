/**
 * @module
 * An Artillery script as the experiment it describes, every problem named at the script's own path.
 */
import { durationMsOf, MAX_DURATION_MS } from "../../validation/duration.ts";
import {
  ArtilleryError,
  type ArtilleryIssue,
  type Collector,
  isRecord,
  join,
  rejectUnknownKeys,
  secondsToDuration,
} from "./common.ts";
import { convertEnsure, type Threshold } from "./ensure.ts";
import { convertPhases } from "./phases.ts";
import { allWsScenarios, convertWsScenarios } from "./ws.ts";
import { flowContext } from "./context.ts";
import { convertScenarios } from "./flow.ts";
import { listOrigin, type Origins, type OriginTable, originTable, tagOrigin } from "./paths.ts";

interface ArtilleryOptions {
  /** The script's file name: names the experiment (`cms.yml` -> `cms`) and appears in its description. */
  file?: string;
}

/** The experiment an Artillery script describes, with notes on differences that change no request. */
interface ArtilleryConversion {
  experiment: Record<string, unknown>;
  /** Printed by the CLI before the run, one line each. */
  notes: string[];
}

/** The conversion with its issues and where each converted part came from. */
interface ArtilleryImport extends ArtilleryConversion {
  issues: ArtilleryIssue[];
  /** Converted path -> the script's path (paths.ts), for problems found in the experiment. */
  origins: OriginTable;
}

/** The script's section each top-level part of the experiment is made from. */
const ROOT_ORIGINS = {
  targets: "config.target",
  flows: "scenarios",
  loads: "config.phases",
  data: "config.payload",
  thresholds: "config.ensure",
};

const CONFIG_KEYS = [
  "target",
  "phases",
  "http",
  "variables",
  "defaults",
  "ensure",
  "plugins",
  "environments",
  "payload",
];

/** True for an Artillery script: a `config` mapping with `target` or `phases`, and a `scenarios` list. */
export function isArtilleryScript(doc: unknown): boolean {
  if (!isRecord(doc) || !isRecord(doc.config) || !Array.isArray(doc.scenarios)) return false;
  return doc.config.target !== undefined || doc.config.phases !== undefined;
}

/** The loadlab experiment object for an Artillery script; throws `ArtilleryError` listing every issue. */
export function artilleryToExperiment(doc: unknown, opts: ArtilleryOptions = {}): ArtilleryConversion {
  const { experiment, notes, issues } = importArtillery(doc, opts);
  if (issues.length > 0) throw new ArtilleryError(issues);
  return { experiment, notes };
}

/** The experiment an Artillery script describes; throws `ArtilleryError` only for what is no script. */
export function importArtillery(doc: unknown, opts: ArtilleryOptions = {}): ArtilleryImport {
  const origins: Origins = new WeakMap();
  const out: Collector = { issues: [], warnings: [], origins };
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
    name: experimentName(opts.file),
    description: `Artillery script${opts.file ? ` ${opts.file}` : ""}, imported`,
    targets: { target: { url: ctx.origin } },
    flows,
    loads: { artillery: load },
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
  if (config.environments !== undefined) {
    out.warnings.push(
      "config.environments: not applied (as `artillery run` without -e); the base config runs",
    );
  }
}

/** The thresholds of `config.ensure` and then of `config.plugins.ensure`. */
function ensureThresholds(config: Record<string, unknown>, out: Collector): Threshold[] {
  return [
    ...convertEnsure(config.ensure, "config.ensure", out),
    ...convertEnsure(
      isRecord(config.plugins) ? config.plugins.ensure : undefined,
      "config.plugins.ensure",
      out,
    ),
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
    out.issues.push({ path: "config.target", message: "engine: ws needs a ws:// or wss:// target" });
  }
  for (const key of ["payload", "variables", "defaults", "http", "ensure"]) {
    if (config[key] !== undefined) {
      out.issues.push({ path: `config.${key}`, message: "not converted for engine: ws scenarios" });
    }
  }
  const load = convertPhases(config.phases, out);
  const part = target ? convertWsScenarios(scenarios, target, out) : { ws: {} };
  return {
    name: experimentName(opts.file),
    description: `Artillery engine: ws script${opts.file ? ` ${opts.file}` : ""}, imported`,
    targets: { target: { url: target ? target.origin.replace(/^ws/i, "http") : "http://127.0.0.1" } },
    // Merged in place, not copied: the load keeps the tag naming config.phases.
    loads: { artillery: Object.assign(load, part) },
  };
}

/** `cms.yml` -> `cms`; characters outside the experiment-name alphabet become `-`. */
function experimentName(file: string | undefined): string {
  if (!file) return "artillery";
  const base = file.split(/[\\/]/).pop()!.replace(/\.(ya?ml|json)$/i, "");
  return base.replace(/[^A-Za-z0-9._-]+/g, "-") || "artillery";
}

function parseTarget(target: unknown, out: Collector): URL | undefined {
  if (typeof target !== "string" || !/^https?:\/\//i.test(target)) {
    out.issues.push({
      path: "config.target",
      message: target === undefined
        ? "missing: the base URL such as http://127.0.0.1:8080"
        : `expected an http(s) URL, found ${JSON.stringify(target)}`,
    });
    return undefined;
  }
  return new URL(target);
}

/** Plugins loadlab honours: `ensure` switches the checks on, `metrics-by-endpoint` is always on. */
function checkPlugins(plugins: unknown, out: Collector): void {
  if (plugins === undefined) return;
  if (!isRecord(plugins)) {
    out.issues.push({ path: "config.plugins", message: "expected a mapping of plugin names" });
    return;
  }
  for (const name of Object.keys(plugins)) {
    if (name === "ensure" || name === "metrics-by-endpoint") continue;
    out.issues.push({ path: `config.plugins.${name}`, message: "Artillery plugins do not run in loadlab" });
  }
}

function httpTimeout(http: unknown, out: Collector): string | undefined {
  if (http === undefined) return undefined;
  if (!isRecord(http)) {
    out.issues.push({ path: "config.http", message: "expected a mapping such as {timeout: 10}" });
    return undefined;
  }
  rejectUnknownKeys(http, "config.http", ["timeout"], out);
  return http.timeout === undefined ? undefined : secondsToDuration(http.timeout, "config.http.timeout", out);
}

/** Artillery's default `config.http.timeout` (10 s), also loadlab's default request timeout. */
const ARTILLERY_TIMEOUT_MS = 10_000;

/** The longest a session can last: its think times plus a timeout per request. */
function longestSessionMs(flows: ReturnType<typeof convertScenarios>, timeoutMs: number): number {
  let longest = 0;
  for (const flow of flows) {
    let ms = 0;
    for (const step of flow.steps) {
      if (step === undefined) continue;
      ms += "think" in step
        ? (typeof step.think === "string" ? durationMsOf(step.think) ?? 0 : 0)
        : timeoutMs;
    }
    longest = Math.max(longest, ms);
  }
  return longest;
}

const PAYLOAD_KEYS = ["path", "fields", "order", "skipHeader"];

/** `config.payload` (one CSV file, a row per virtual user) as a loadlab data source. */
function convertPayload(payload: unknown, out: Collector) {
  if (payload === undefined) return undefined;
  const one = Array.isArray(payload) && payload.length === 1 ? payload[0] : payload;
  const path = Array.isArray(payload) ? "config.payload[0]" : "config.payload";
  if (!isRecord(one)) {
    out.issues.push({
      path: "config.payload",
      message: "expected one payload {path, fields} (several are not supported)",
    });
    return undefined;
  }
  rejectUnknownKeys(one, path, PAYLOAD_KEYS, out);
  const fields = one.fields;
  if (typeof one.path !== "string" || !Array.isArray(fields) || !fields.every((f) => typeof f === "string")) {
    out.issues.push({ path, message: "a payload needs path (a CSV file) and fields (its column names)" });
    return undefined;
  }
  if (one.order !== undefined && one.order !== "random" && one.order !== "sequence") {
    out.issues.push({
      path: join(path, "order"),
      message: `expected random or sequence, found ${JSON.stringify(one.order)}`,
    });
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
