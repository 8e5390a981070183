/**
 * @module
 * Pass/fail thresholds for CI (`--threshold "p99<200ms"`, k6's thresholds in a one-line form). Expressions
 * are parsed before any load is sent, so a typo exits 2 instead of wasting a run; after the run each
 * one is evaluated against every run it applies to. Grammar: `[run:]metric op value[unit]` with
 * metric one of the names in `METRICS`, op `< <= > >= ==`, latency units us/ms/s (default ms), and `%`
 * for rates (`success>99.5%`). A trailing `over 10s` (latency, rps, success rates) judges every window of
 * that length of the interval data instead of the whole run (results/thresholds/windows.ts): the worst
 * window is the actual value. An unknown metric names the nearest known one. A selector in braces
 * (`p99{name:GET /json}<200ms`, or k6's `http_req_duration{name:/login}: p(99)<200`) judges the rule on
 * the endpoints it picks (results/thresholds/selector.ts); `kind` in the braces
 * (`errorRate{kind:grpc UNAVAILABLE}<1%`) the failures of one error kind (results/thresholds/kind.ts),
 * except in k6's form, where every key is a tag of the requests (`http_req_duration{kind:html}`).
 */
import type { RunResult, ThresholdResult } from "../mod.ts";
import type { LatencyKey } from "../schema/values.ts";
import { ConfigError } from "../../validation/config_error.ts";
import { nearest } from "../../validation/suggest.ts";
import { type WindowMetric, windowValues } from "./windows.ts";
import { sampledLatency } from "../conclude/responses.ts";
import {
  ENDPOINT_METRICS,
  fromK6,
  selectedRun,
  type Selector,
  selectorText,
  splitSelector,
} from "./selector.ts";
import { kindProblem, kindValue, splitKind } from "./kind.ts";
import { maxOf, minOf } from "../../system/large_arrays.ts";

type Op = "<" | "<=" | ">" | ">=" | "==";

/** A parsed threshold. */
export interface Threshold {
  expression: string;
  /** Only runs with this name (experiments); undefined = every run. */
  run?: string;
  metric: string;
  op: Op;
  value: number;
  /** `over 10s`: the rule must hold in every window of this length (ms). */
  windowMs?: number;
  /** `p99{name:GET /json}<200ms`: judged on the endpoints it selects (results/thresholds/selector.ts). */
  selector?: Selector;
  /** `errorRate{kind:timeout}<1%`: only the failures of this kind (results/thresholds/kind.ts). */
  kind?: string;
}

const LATENCY_KEYS: Record<string, LatencyKey> = {
  min: "min",
  mean: "mean",
  avg: "mean",
  stdev: "stdev",
  p50: "p50",
  median: "p50",
  p75: "p75",
  p90: "p90",
  p95: "p95",
  p99: "p99",
  "p99.9": "p999",
  p999: "p999",
  "p99.99": "p9999",
  max: "max",
};

const RATIOS: Record<string, (r: RunResult) => number> = {
  success: (r) => r.successRate,
  successRate: (r) => r.successRate,
  errorRate: (r) => 1 - r.successRate,
};

/** Responses counted as failed by their status: 4xx, 5xx and any below 200 (a 3xx is success). */
function failedStatusOf(r: RunResult): number {
  return Object.entries(r.statusCodes).reduce((a, [c, n]) => (c < "200" || c >= "400" ? a + n : a), 0);
}

const COUNTS: Record<string, (r: RunResult) => number> = {
  rps: (r) => r.rps,
  requests: (r) => r.requests,
  errors: (r) => Object.values(r.errors).reduce((a, b) => a + (b ?? 0), 0),
  failedStatus: failedStatusOf,
  /** The earlier name of `failedStatus`, kept so existing files and flags still work. */
  non2xx: failedStatusOf,
  lateSends: (r) => r.lateSends,
  late: (r) => r.lateSends,
  dropped: (r) => r.droppedSends,
};

/** Every metric name a threshold may use. */
export const METRICS = [...Object.keys(LATENCY_KEYS), ...Object.keys(RATIOS), ...Object.keys(COUNTS)];

const PATTERN =
  /^(?:([^:<>=]+):)?\s*([A-Za-z][\w.]*)\s*(<=|>=|==|<|>)\s*(-?[\d.]+)\s*(us|ms|s|%)?(?:\s+over\s+(\S+))?$/;
const WINDOW = /^(\d+(?:\.\d+)?)(ms|s|m)$/;
const WINDOW_UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** Parses one expression; throws `ConfigError` naming the problem and the fix. */
export function parseThreshold(expression: string): Threshold {
  // One line: a line break or other control character broke the terminal's table of thresholds.
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x1f\x7f]/.test(expression)) {
    throw thresholdError(
      expression,
      "a threshold is one line of text: remove its line breaks and control characters",
    );
  }
  const k6 = fromK6(expression);
  const { rest, selector: braces, problem } = splitSelector(k6 ?? expression);
  if (problem) throw thresholdError(expression, problem);
  // In k6's form every key in braces is a tag of the requests (k6's `{kind:html}`), never an error kind.
  const { selector, kind } = k6 === null ? splitKind(braces) : { selector: braces, kind: undefined };
  const m = PATTERN.exec(rest.trim());
  const fix = `write it like "p99<200ms", "rps>=1000", "success>99%" or "p99{name:GET /json}<200ms"`;
  if (!m) throw thresholdError(expression, `not understood; ${fix}`);
  const [, run, metric, op, number, unit, over] = m;
  if (!METRICS.includes(metric)) {
    const guess = nearest(metric, METRICS);
    throw thresholdError(
      expression,
      `unknown metric "${metric}"${guess ? `; did you mean "${guess}"?` : ""} (one of ${METRICS.join(", ")})`,
    );
  }
  const windowMs = over === undefined ? undefined : parseWindow(expression, metric, over);
  if (selector) checkEndpointRule(expression, metric, selector, windowMs);
  const wrongKind = kind === undefined ? null : kindProblem(metric, kind, windowMs);
  if (wrongKind) throw thresholdError(expression, wrongKind);
  let value = Number(number);
  if (!Number.isFinite(value)) {
    throw thresholdError(expression, `"${number}" is not a number`);
  }
  if (metric in LATENCY_KEYS) {
    if (unit === "%") throw thresholdError(expression, `latency takes us, ms or s, not %`);
    value = unit === "s" ? value * 1000 : unit === "us" ? value / 1000 : value;
  } else if (metric in RATIOS) {
    if (unit && unit !== "%") {
      throw thresholdError(expression, `a rate takes % or a 0..1 ratio`);
    }
    value = unit === "%" ? value / 100 : value;
  } else if (unit) {
    throw thresholdError(expression, `${metric} is a plain number; drop the "${unit}"`);
  }
  return {
    expression,
    run: run?.trim(),
    metric,
    op: op as Op,
    value,
    ...(windowMs ? { windowMs } : {}),
    ...(selector ? { selector } : {}),
    ...(kind !== undefined ? { kind } : {}),
  };
}

/** A rule on endpoints takes what endpoints measure, over the whole run. */
function checkEndpointRule(expression: string, metric: string, selector: Selector, windowMs?: number): void {
  if (!ENDPOINT_METRICS.has(metric)) {
    throw thresholdError(
      expression,
      `${metric} is the run's, not measured per endpoint; drop ${selectorText(selector)} or use ` +
        "latency, rps, requests, errors, failedStatus or a success rate",
    );
  }
  if (windowMs !== undefined) {
    throw thresholdError(
      expression,
      `"over" is judged on the whole run's intervals, not per endpoint; drop one`,
    );
  }
}

/** `over 10s` -> 10000; only metrics a window has (latency, rps, success rates), a positive length. */
function parseWindow(expression: string, metric: string, over: string): number {
  const w = WINDOW.exec(over);
  const ms = w ? Number(w[1]) * WINDOW_UNIT_MS[w[2]] : 0;
  if (!(ms > 0)) {
    throw thresholdError(expression, `"over ${over}": give a window length such as 10s, 500ms or 1m`);
  }
  if (!windowMetric(metric)) {
    throw thresholdError(expression, `"over" applies to latency, rps and success rates, not ${metric}`);
  }
  return ms;
}

/** What a window of `metric` is measured from, or null for counts that have no per-window meaning here. */
export function windowMetric(metric: string): WindowMetric | null {
  if (LATENCY_KEYS[metric]) return { kind: "latency", key: LATENCY_KEYS[metric] };
  if (metric === "rps") return { kind: "rps" };
  if (metric in RATIOS) return { kind: "success", invert: metric === "errorRate" };
  return null;
}

/** A threshold problem: the expression is where, so the line reads `threshold "p99<x": not understood`. */
function thresholdError(expression: string, message: string): ConfigError {
  return new ConfigError([{ path: `threshold "${expression}"`, message }]);
}

/**
 * The measured value of a metric for a run (latencies in ms, rates as 0..1). A latency without a sample
 * (no response at all) is NaN, so its rule fails as a windowed rule without data does, never passing on
 * the 0 the schema stores.
 */
export function metricValue(run: RunResult, metric: string): number {
  const key = LATENCY_KEYS[metric];
  if (key) return sampledLatency(run)[key];
  return (RATIOS[metric] ?? COUNTS[metric])(run);
}

/** Whether `actual` satisfies `op limit`. */
export function compare(actual: number, op: Op, limit: number): boolean {
  switch (op) {
    case "<":
      return actual < limit;
    case "<=":
      return actual <= limit;
    case ">":
      return actual > limit;
    case ">=":
      return actual >= limit;
    case "==":
      return actual === limit;
  }
}

/**
 * The thresholds of a shard (`--segment`), recorded unevaluated (`pending`): a shard holds part of the
 * load, so `loadlab merge` evaluates them on the whole.
 */
export function pendingThresholds(thresholds: Threshold[], run: RunResult): ThresholdResult[] {
  return thresholds.map((t) => ({
    expression: t.expression,
    run: run.name,
    actual: NaN,
    ok: true,
    pending: true,
  }));
}

/**
 * Evaluates every threshold against every run it applies to. The rule that stopped a run
 * (`abortedBy`) fails on it whatever the rest of the run did after: the stop is its verdict, and the
 * actual shown is the one it failed with while the run went on unless the whole run fails it too.
 */
export function evaluateThresholds(thresholds: Threshold[], runs: RunResult[]): ThresholdResult[] {
  const results: ThresholdResult[] = [];
  for (const t of thresholds) {
    for (const run of runs) {
      if (t.run !== undefined && t.run !== run.name) continue;
      const result = t.windowMs !== undefined ? windowResult(t, run) : wholeRunResult(t, run);
      const stopped = run.abortedBy?.threshold === t.expression;
      results.push(stopped && result.ok ? { ...result, actual: run.abortedBy!.actual, ok: false } : result);
    }
  }
  return results;
}

function wholeRunResult(t: Threshold, run: RunResult): ThresholdResult {
  // On endpoints: the run as they make it; none selected (a file without endpoints) fails unmeasured.
  const judged = t.selector ? selectedRun(run, t.selector) : run;
  const actual = judged === null
    ? Number.NaN
    : t.kind !== undefined
    ? kindValue(judged, t.metric, t.kind)
    : metricValue(judged, t.metric);
  const unmatched = judged === null && t.selector !== undefined ? { unmatched: true } : {};
  return {
    expression: t.expression,
    run: run.name,
    actual,
    ok: compare(actual, t.op, t.value),
    ...unmatched,
  };
}

/**
 * A windowed rule: ok when every window with data passes; the actual value is the worst window (the
 * highest for `<`/`<=`, the lowest for `>`/`>=`, the first unequal one for `==`).
 */
function windowResult(t: Threshold, run: RunResult): ThresholdResult {
  const values = windowValues(run, t.windowMs!, windowMetric(t.metric)!).filter(Number.isFinite);
  const failing = values.filter((v) => !compare(v, t.op, t.value));
  const pick = (xs: number[]) =>
    t.op === "<" || t.op === "<=" ? maxOf(xs) : t.op === "==" ? xs[0] : minOf(xs);
  const actual = values.length === 0 ? Number.NaN : pick(failing.length ? failing : values);
  return { expression: t.expression, run: run.name, actual, ok: values.length > 0 && failing.length === 0 };
}
