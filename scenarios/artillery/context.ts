/**
 * @module
 * What an Artillery script's requests are converted against, read from its `config`.
 */
import { endpointNaming } from "./endpoints.ts";
import { type Collector, isRecord, join, rejectUnknownKeys } from "./common.ts";
import { captureNames } from "./flow.ts";
import { type FlowContext, scalarMap, type Variables } from "./request.ts";

/** What the scenarios' requests are converted against. */
export function flowContext(
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
    out.issues.push({ path: "config.defaults", message: "expected a mapping such as {headers: {...}}" });
    return {};
  }
  rejectUnknownKeys(defaults, "config.defaults", ["headers"], out);
  if (defaults.headers === undefined) return {};
  return scalarMap(defaults.headers, "config.defaults.headers", ctx, out) ?? {};
}

function parseVariables(variables: unknown, out: Collector): Variables {
  const result: Variables = new Map();
  if (variables === undefined) return result;
  if (!isRecord(variables)) {
    out.issues.push({ path: "config.variables", message: "expected a mapping of names to values" });
    return result;
  }
  for (const [name, value] of Object.entries(variables)) {
    // A one-element list is one value, as Artillery would always pick it.
    const v = Array.isArray(value) && value.length === 1 ? value[0] : value;
    if (Array.isArray(v)) result.set(name, { listLength: v.length });
    else if (["string", "number", "boolean"].includes(typeof v)) {
      result.set(name, { value: v as string | number | boolean });
    } else {
      out.issues.push({
        path: join("config.variables", name),
        message: "expected a value or a list of values",
      });
    }
  }
  return result;
}
