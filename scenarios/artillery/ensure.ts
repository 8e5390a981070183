/**
 * @module
 * Artillery `config.ensure` -> loadlab threshold expressions, with artillery-plugin-ensure's meaning.
 */
import { type Collector, isRecord, join, rejectUnknownKeys } from "./common.ts";

/** Artillery metric name -> loadlab threshold metric, and whether it is a latency (gets "ms"). */
const METRICS: Record<string, { metric: string; latency: boolean }> = {
  "http.request_rate": { metric: "rps", latency: false },
  "http.requests": { metric: "requests", latency: false },
};
for (const agg of ["min", "max", "mean", "median", "p50", "p75", "p90", "p95", "p99", "p999"]) {
  METRICS[`http.response_time.${agg}`] = { metric: agg, latency: true };
}

const LEGACY = ["min", "max", "median", "p95", "p99"];
const COMPARISON = /^\s*([A-Za-z_$][\w.$]*)\s*(<=|>=|==|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/;

function expression(name: string, op: string, value: number, path: string, out: Collector) {
  const known = METRICS[name];
  if (!known) {
    out.issues.push({
      path,
      message: `metric "${name}" has no loadlab equivalent; use one of ${Object.keys(METRICS).join(", ")}`,
    });
    return undefined;
  }
  return `${known.metric} ${op} ${value}${known.latency ? "ms" : ""}`;
}

function number(value: unknown, path: string, out: Collector): number | undefined {
  const n = typeof value === "string" ? Number(value) : value;
  if (typeof n === "number" && Number.isFinite(n)) return n;
  out.issues.push({ path, message: `expected a number, found ${JSON.stringify(value)}` });
  return undefined;
}

/** One threshold expression and the script's path it was read from. */
export interface Threshold {
  expression: string;
  at: string;
}

function thresholdsForm(list: unknown, path: string, out: Collector): Threshold[] {
  if (!Array.isArray(list)) {
    out.issues.push({ path, message: "expected a list such as - http.response_time.p99: 250" });
    return [];
  }
  return list.flatMap((entry, i) => {
    const p = join(path, i);
    if (!isRecord(entry) || Object.keys(entry).length !== 1) {
      out.issues.push({
        path: p,
        message: "expected one metric: value pair such as http.response_time.p99: 250",
      });
      return [];
    }
    const [name, raw] = Object.entries(entry)[0];
    const value = number(raw, join(p, name), out);
    const expr = value === undefined ? undefined : expression(name, "<", value, join(p, name), out);
    return expr ? [{ expression: expr, at: join(p, name) }] : [];
  });
}

function conditionsForm(list: unknown, path: string, out: Collector): Threshold[] {
  if (!Array.isArray(list)) {
    out.issues.push({ path, message: "expected a list such as - expression: http.response_time.p95 < 250" });
    return [];
  }
  return list.flatMap((entry, i) => {
    const p = join(path, i);
    if (!isRecord(entry) || typeof entry.expression !== "string") {
      out.issues.push({ path: join(p, "expression"), message: "missing: an expression such as p95 < 250" });
      return [];
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
        out.issues.push({
          path: join(p, "expression"),
          message: `"${part.trim()}": only comparisons (metric < number) joined by "and" are supported`,
        });
        continue;
      }
      const expr = expression(m[1], m[2], Number(m[3]), join(p, "expression"), out);
      if (expr) exprs.push({ expression: expr, at: join(p, "expression") });
    }
    return exprs;
  });
}

/** Threshold expressions with their paths from `config.ensure` or `config.plugins.ensure`. */
export function convertEnsure(ensure: unknown, path: string, out: Collector): Threshold[] {
  if (ensure === undefined || ensure === null) return []; // `plugins: {ensure: }` only switches it on
  if (!isRecord(ensure)) {
    out.issues.push({ path, message: "expected a mapping such as {p99: 250, maxErrorRate: 1}" });
    return [];
  }
  rejectUnknownKeys(ensure, path, [...LEGACY, "maxErrorRate", "thresholds", "conditions"], out);
  const result: Threshold[] = [];
  for (const key of LEGACY) {
    if (ensure[key] === undefined) continue;
    const value = number(ensure[key], join(path, key), out);
    const expression = `${key === "median" ? "p50" : key} < ${value}ms`;
    if (value !== undefined) result.push({ expression, at: join(path, key) });
  }
  if (ensure.maxErrorRate !== undefined) {
    const value = number(ensure.maxErrorRate, join(path, "maxErrorRate"), out);
    if (value !== undefined) {
      result.push({ expression: `errorRate <= ${value}%`, at: join(path, "maxErrorRate") });
      out.warnings.push(
        `${path}.maxErrorRate: loadlab's errorRate counts failed requests including 4xx/5xx responses; ` +
          `Artillery counts virtual users that hit a network error`,
      );
    }
  }
  if (ensure.thresholds !== undefined) {
    result.push(...thresholdsForm(ensure.thresholds, join(path, "thresholds"), out));
  }
  if (ensure.conditions !== undefined) {
    result.push(...conditionsForm(ensure.conditions, join(path, "conditions"), out));
  }
  return result;
}
