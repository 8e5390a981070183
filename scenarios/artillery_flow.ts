/**
 * @module
 * Artillery `scenarios[]` -> loadlab `flows`: each scenario becomes a flow with its weight, each
 * `get/post/put/patch/delete/head` step a request step (`url` made relative to the target, `qs` ->
 * `query`, `json`/`body`, `config.defaults.headers` under the step's own headers, `capture` (json,
 * header, regexp) the step's captures) and each `think` (seconds) a think step; `loop` with a `count`
 * is written out that many times. `{{ name }}` templates are filled from `config.variables`; a payload
 * field, a captured name and `$randomNumber(min,max)` / `$randomString(n)` stay placeholders, filled
 * per session or request by the engine. A variable with a list of values is refused where it is used,
 * because Artillery draws one value per virtual user and sending only the first value would change what
 * the target sees (a cache study would measure a 100% hit rate): put such values in a payload file.
 * Everything else a step may hold is refused with its path by the shared table in artillery_common.ts.
 */
import { artilleryEndpointName, type EndpointNaming } from "./artillery_endpoints.ts";
import {
  type Collector,
  isRecord,
  join,
  nonNegative,
  rejectUnknownKeys,
  secondsToDuration,
} from "./artillery_common.ts";

/** `config.variables`: a value to substitute, or the number of values of a list (refused when used). */
export type Variables = Map<string, { value: string | number | boolean } | { listLength: number }>;

/** What every request of the script shares. */
export interface FlowContext {
  /** The target's origin (`http://host:port`), the base URL of the loadlab target. */
  origin: string;
  /** The target URL's path without a trailing slash ("" or "/api"): Artillery prefixes it to urls. */
  basePath: string;
  defaultHeaders: Record<string, string>;
  variables: Variables;
  /** Names filled at run time (payload fields, captures): their placeholders stay as written. */
  runtimeNames: ReadonlySet<string>;
  /** How requests are named as endpoints (artillery_endpoints.ts). */
  naming: EndpointNaming;
}

/** Steps a `loop` may write out at most (count x steps), so a typo cannot build a giant flow. */
const MAX_UNROLLED_STEPS = 1000;
const RUNTIME_CALL = /^\$random(Number|String)\(/;

const METHODS = ["get", "post", "put", "patch", "delete", "head"] as const;
const REQUEST_KEYS = ["url", "json", "body", "headers", "qs", "capture", "name"];
const CAPTURE_KEYS = ["json", "header", "regexp", "group", "as"];
const SCENARIO_KEYS = ["name", "weight", "flow"];
const TEMPLATE = /\{\{\s*([^}]*?)\s*\}\}/g;

/** Fills `{{ name }}` in one string; a template that is the whole string keeps the variable's type. */
function fill(text: string, path: string, ctx: FlowContext, out: Collector): string | number | boolean {
  const whole = /^\{\{\s*([^}]*?)\s*\}\}$/.exec(text);
  const lookup = (name: string): string | number | boolean => {
    if (ctx.runtimeNames.has(name) || RUNTIME_CALL.test(name)) return `{{ ${name} }}`;
    const v = ctx.variables.get(name);
    if (v && "value" in v) return v.value;
    if (v) {
      out.issues.push({
        path,
        message: `uses {{ ${name} }}, which config.variables.${name} lists ${v.listLength} values for: ` +
          `Artillery picks one per virtual user, loadlab builds its requests once; give one value`,
      });
    } else if (name.startsWith("$")) {
      out.issues.push({ path, message: `{{ ${name} }}: template functions and $env are not supported` });
    } else {
      out.issues.push({
        path,
        message: `{{ ${name} }} is not in config.variables, a payload field or a capture`,
      });
    }
    return "";
  };
  if (whole) return lookup(whole[1]);
  return text.replace(TEMPLATE, (_, name: string) => String(lookup(name)));
}

/** Fills templates in every string of a JSON value (keys included). */
function fillDeep(value: unknown, path: string, ctx: FlowContext, out: Collector): unknown {
  if (typeof value === "string") return fill(value, path, ctx, out);
  if (Array.isArray(value)) return value.map((v, i) => fillDeep(v, join(path, i), ctx, out));
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value).map((
        [k, v],
      ) => [String(fill(k, path, ctx, out)), fillDeep(v, join(path, k), ctx, out)]),
    );
  }
  return value;
}

/** A header or query map of scalars with templates filled; undefined (and an issue) when malformed. */
export function scalarMap(value: unknown, path: string, ctx: FlowContext, out: Collector) {
  if (!isRecord(value)) {
    out.issues.push({
      path,
      message: `expected a mapping of names to values, found ${JSON.stringify(value)}`,
    });
    return undefined;
  }
  const result: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (!["string", "number", "boolean"].includes(typeof v)) {
      out.issues.push({
        path: join(path, k),
        message: `expected a string or number, found ${JSON.stringify(v)}`,
      });
      continue;
    }
    result[k] = String(typeof v === "string" ? fill(v, join(path, k), ctx, out) : v);
  }
  return result;
}

/** Artillery's `url` (relative to the target, or absolute on the same origin) as a loadlab path. */
function toPath(url: unknown, path: string, ctx: FlowContext, out: Collector): string | undefined {
  if (typeof url !== "string" || url === "") {
    out.issues.push({ path, message: `missing: every request needs a url such as "/home"` });
    return undefined;
  }
  const filled = String(fill(url, path, ctx, out));
  if (/^https?:\/\//i.test(filled)) {
    const parsed = new URL(filled);
    if (parsed.origin !== ctx.origin) {
      out.issues.push({
        path,
        message: `${parsed.origin} is not the target ${ctx.origin}: one target per script`,
      });
      return undefined;
    }
    return parsed.pathname + parsed.search;
  }
  return ctx.basePath + (filled.startsWith("/") ? filled : `/${filled}`);
}

/** Merges default and step headers; the step wins, names compared without case as HTTP does. */
function mergeHeaders(defaults: Record<string, string>, own: Record<string, string> | undefined) {
  const merged: Record<string, string> = {};
  const ownNames = new Set(Object.keys(own ?? {}).map((k) => k.toLowerCase()));
  for (const [k, v] of Object.entries(defaults)) if (!ownNames.has(k.toLowerCase())) merged[k] = v;
  return { ...merged, ...own };
}

function convertRequest(spec: unknown, path: string, ctx: FlowContext, out: Collector) {
  if (!isRecord(spec)) {
    out.issues.push({
      path,
      message: `expected a request such as {url: /home}, found ${JSON.stringify(spec)}`,
    });
    return undefined;
  }
  rejectUnknownKeys(spec, path, REQUEST_KEYS, out);
  const request: Record<string, unknown> = { path: toPath(spec.url, join(path, "url"), ctx, out) };
  if (typeof spec.url === "string") {
    request.name = artilleryEndpointName(spec.url, spec.name, ctx.basePath, ctx.naming);
  }
  if (spec.qs !== undefined) request.query = scalarMap(spec.qs, join(path, "qs"), ctx, out);
  const own = spec.headers === undefined
    ? undefined
    : scalarMap(spec.headers, join(path, "headers"), ctx, out);
  const headers = mergeHeaders(ctx.defaultHeaders, own);
  if (Object.keys(headers).length > 0) request.headers = headers;
  if (spec.json !== undefined && spec.body !== undefined) {
    out.issues.push({ path: join(path, "body"), message: "give json or body, not both" });
  } else if (spec.json !== undefined) {
    request.json = fillDeep(spec.json, join(path, "json"), ctx, out);
  } else if (spec.body !== undefined) {
    const body = typeof spec.body === "string" ? spec.body : JSON.stringify(spec.body);
    request.body = String(fill(body, join(path, "body"), ctx, out));
  }
  return { request, capture: convertCaptures(spec.capture, join(path, "capture"), out) };
}

/** Artillery's `capture` (one or a list) as loadlab captures: json, header or regexp (with group). */
function convertCaptures(value: unknown, path: string, out: Collector) {
  if (value === undefined) return undefined;
  const list = Array.isArray(value) ? value : [value];
  return list.map((c, i) => {
    const at = Array.isArray(value) ? join(path, i) : path;
    if (!isRecord(c) || typeof c.as !== "string") {
      out.issues.push({ path: at, message: "expected a capture such as {json: $.token, as: token}" });
      return undefined;
    }
    rejectUnknownKeys(c, at, CAPTURE_KEYS, out);
    const kinds = ["json", "header", "regexp"].filter((k) => typeof c[k] === "string");
    if (kinds.length !== 1) {
      out.issues.push({ path: at, message: "a capture takes one of json, header or regexp (a string)" });
      return undefined;
    }
    return Object.fromEntries(Object.entries(c).filter(([k]) => CAPTURE_KEYS.includes(k)));
  }).filter((c) => c !== undefined);
}

/** Every capture name (`as`) of the scenarios: placeholders that stay for the engine to fill. */
export function captureNames(scenarios: unknown): string[] {
  const names: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (isRecord(value)) {
      for (const [k, v] of Object.entries(value)) {
        if (k !== "capture") visit(v);
        else {for (const c of Array.isArray(v) ? v : [v]) {
            if (isRecord(c) && typeof c.as === "string") names.push(c.as);
          }}
      }
    }
  };
  visit(scenarios);
  return names;
}

type Step = Record<string, unknown>;

/** One step as loadlab steps: one, or a `loop`'s steps `count` times over. */
function convertStep(step: unknown, path: string, ctx: FlowContext, out: Collector): Array<Step | undefined> {
  if (!isRecord(step) || Object.keys(step).length === 0) {
    out.issues.push({ path, message: `expected a step such as {get: {url: /home}} or {think: 1}` });
    return [undefined];
  }
  if (step.loop !== undefined) return convertLoop(step, path, ctx, out);
  const keys = Object.keys(step);
  const action = keys.find((k) => k === "think" || (METHODS as readonly string[]).includes(k));
  rejectUnknownKeys(step, path, action ? [action] : [], out);
  if (action === "think") {
    const thinkPath = join(path, "think");
    noteFractionalThink(step.think, thinkPath, out);
    return [{ think: secondsToDuration(step.think, thinkPath, out) }];
  }
  if (!action) return [undefined];
  const converted = convertRequest(step[action], join(path, action), ctx, out);
  if (converted === undefined) return [undefined];
  const capture = converted.capture?.length ? { capture: converted.capture } : {};
  return [{ [action]: converted.request, ...capture }];
}

/** The start of the one warning about fractional think times (it is given once per script). */
export const FRACTIONAL_THINK = "think is read as seconds";

/**
 * Artillery's docs define `think` in seconds, which loadlab keeps (0.5 waits 500 ms); Artillery 2.0.21
 * itself takes only whole numbers as seconds and a fraction as milliseconds (0.5 waits about 1 ms). So
 * the same script paces differently in the two tools: said once, at the first fractional think.
 */
function noteFractionalThink(value: unknown, path: string, out: Collector): void {
  const seconds = typeof value === "string" && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || Number.isInteger(seconds)) return;
  if (out.warnings.some((w) => w.includes(FRACTIONAL_THINK))) return;
  const ms = Math.round(seconds * 1000);
  out.warnings.push(
    `${path}: ${FRACTIONAL_THINK} (${JSON.stringify(value)} waits ${ms} ms, as Artillery's documentation ` +
      `defines it); Artillery 2.0.21 itself waits about 1 ms for a fractional think (only whole numbers ` +
      `are seconds there), so its runs of this script pause less between requests`,
  );
}

/** `{loop: [steps], count: N}` written out N times; a loop over a list or without a count is refused. */
function convertLoop(step: Record<string, unknown>, path: string, ctx: FlowContext, out: Collector) {
  rejectUnknownKeys(step, path, ["loop", "count"], out);
  const count = step.count;
  if (!Array.isArray(step.loop) || typeof count !== "number" || !Number.isInteger(count) || count < 1) {
    out.issues.push({
      path: join(path, "loop"),
      message: "a loop runs here with a list of steps and a whole count >= 1 (loops over values or " +
        "without a count are not supported)",
    });
    return [undefined];
  }
  const once = step.loop.flatMap((s, j) => convertStep(s, join(join(path, "loop"), j), ctx, out));
  if (once.length * count > MAX_UNROLLED_STEPS) {
    out.issues.push({
      path,
      message: `loop writes out ${once.length * count} steps; at most ${MAX_UNROLLED_STEPS}`,
    });
    return [undefined];
  }
  return Array.from({ length: count }, () => once).flat();
}

/** Converts `scenarios[]` to loadlab flows; problems go to `out` with their paths. */
export function convertScenarios(scenarios: unknown, ctx: FlowContext, out: Collector) {
  if (!Array.isArray(scenarios) || scenarios.length === 0) {
    out.issues.push({ path: "scenarios", message: "missing: at least one scenario with a flow" });
    return [];
  }
  const used = new Set<string>();
  const flows = scenarios.map((scenario, i) => {
    const path = join("scenarios", i);
    if (!isRecord(scenario)) {
      out.issues.push({
        path,
        message: `expected a scenario with a flow, found ${JSON.stringify(scenario)}`,
      });
      return undefined;
    }
    const engine = scenario.engine;
    const allowed = engine === undefined || engine === "http" ? [...SCENARIO_KEYS, "engine"] : SCENARIO_KEYS;
    rejectUnknownKeys(scenario, path, allowed, out);
    const weight = scenario.weight === undefined
      ? 1
      : nonNegative(scenario.weight, join(path, "weight"), out);
    if (!Array.isArray(scenario.flow) || scenario.flow.length === 0) {
      out.issues.push({
        path: join(path, "flow"),
        message: "missing: a list of steps such as - get: {url: /}",
      });
      return undefined;
    }
    if (weight === 0) {
      // Artillery never picks a scenario of weight 0; loadlab's flows need a weight > 0.
      out.warnings.push(`${path}: weight 0, never run by Artillery; left out`);
      return undefined;
    }
    const steps = scenario.flow.flatMap((step, j) =>
      convertStep(step, join(join(path, "flow"), j), ctx, out)
    );
    if (!steps.some((s) => s !== undefined && !("think" in s))) {
      out.issues.push({ path: join(path, "flow"), message: "a flow needs at least one request" });
    }
    return { name: uniqueName(String(scenario.name ?? `scenario ${i}`), used), weight, steps };
  });
  if (flows.every((f) => f === undefined) && out.issues.length === 0) {
    out.issues.push({ path: "scenarios", message: "no scenario with a weight > 0" });
  }
  return flows.filter((f) => f !== undefined);
}

/** Artillery does not require unique names; loadlab reports per flow and phase, so repeats get a suffix. */
export function uniqueName(name: string, used: Set<string>): string {
  let candidate = name;
  for (let n = 2; used.has(candidate); n++) candidate = `${name} (${n})`;
  used.add(candidate);
  return candidate;
}
