/**
 * @module
 * Pass/fail thresholds for CI (`--threshold "p99<200ms"`), parsed before any load and judged on every run
 * they apply to. Grammar: `[run:]metric op value[unit] [over 10s]` (`over`: in every window).
 */
import { defined } from "../../validation/defined.ts";
import type { IntervalResult, RunResult, ThresholdResult } from "../mod.ts";
import { ERROR_KINDS, PERCENTILE_FIELDS } from "../schema/keys.ts";
import type { LatencyKey } from "../schema/values.ts";
import { ConfigError } from "../../validation/config_error.ts";
import { nearest } from "../../validation/suggest.ts";
import { latencySampled, sampledLatency, unansweredRequests } from "../conclude/responses.ts";
import { decodeHistogram, k6QuantileUs, mergeEncoded, summarizeMs } from "../histogram.ts";
import { addCounters, emptyCounters, successRateOf, sumValues } from "../interval_counts.ts";
import {
  failedStatusOf,
  fromK6,
  judgedSuccessRate,
  selectedRun,
  type Selector,
  selectorText,
  splitSelector,
} from "./selector.ts";
import { maxOf, minOf } from "../../system/large_arrays.ts";
import { servedRps } from "../conclude/served_rate.ts";

export type Op = "<" | "<=" | ">" | ">=" | "==" | "!=";

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
  /** `errorRate{kind:timeout}<1%`: only the failures of this kind (`kindValue`). */
  kind?: string;
  /** Written in k6's form (`http_reqs: count>10`): judged on k6's metrics (`k6Value`). */
  k6?: true;
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
  sessionErrorRate: (r) => { // sessions not completed (failed or unfinished at the stop), of those started
    const flows = r.flows ?? [], started = flows.reduce((n, f) => n + f.sessions, 0);
    return flows.reduce((n, f) => n + f.sessions - f.completed, 0) / started;
  },
};

const COUNTS: Record<string, (r: RunResult) => number> = {
  rps: (r) => r.rps,
  requests: (r) => r.requests,
  errors: (r) => sumValues(r.errors),
  failedStatus: failedStatusOf,
  /** Another name of `failedStatus`, which existing files and flags use. */
  non2xx: failedStatusOf,
  lateSends: (r) => r.lateSends,
  late: (r) => r.lateSends,
  dropped: (r) => r.droppedSends,
  sessions: (r) => (r.flows ?? []).reduce((n, f) => n + f.sessions, 0),
  failedSessions: (r) => (r.flows ?? []).reduce((n, f) => n + f.failed, 0),
};

export const METRICS = [...Object.keys(LATENCY_KEYS), ...Object.keys(RATIOS), ...Object.keys(COUNTS)];

/** N of a rule on any percentile, as k6's `p(N)` reads (`p10`, `p33.3`: 0 to 100); undefined for others. */
function anyPercentile(metric: string): number | undefined {
  const n = /^p\d+(\.\d+)?$/.test(metric) ? Number(metric.slice(1)) : Number.NaN;
  return n <= 100 ? n : undefined;
}

const isLatency = (metric: string) => metric in LATENCY_KEYS || anyPercentile(metric) !== undefined;

/** The metrics that exist per endpoint: all but the open model's late and dropped sends and the sessions'. */
const RUN_ONLY = ["lateSends", "late", "dropped", "sessionErrorRate", "sessions", "failedSessions"];
const ENDPOINT_METRICS = new Set(METRICS.filter((m) => !RUN_ONLY.includes(m)));

/** A rule as loadlab writes it; `parseThreshold` takes only a whole match, a unit's reader a leading one. */
const PATTERN =
  /^(?:([^:<>=]+):)?\s*([A-Za-z][\w.]*)\s*(<=|>=|==|!=|<|>)\s*(-?[\d.]+)(?:\s*(us|ms|s|%|k))?(?:\s+over\s+(\S+))?/;
const WINDOW = /^(\d+(?:\.\d+)?)(ms|s|m)$/;
const WINDOW_UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** Parses one expression; throws `ConfigError` naming the problem and the fix. */
export function parseThreshold(expression: string): Threshold {
  // A control character would break the terminal's table of thresholds.
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
  if (m?.[0] !== rest.trim()) throw thresholdError(expression, `not understood; ${fix}`);
  const [, run, metric, op, number, unit, over] = m;
  // k6's form takes any percentile (`p(33)`); loadlab's own the listed ones.
  if (!METRICS.includes(metric) && (k6 === null || anyPercentile(metric) === undefined)) {
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
  if (!Number.isFinite(value)) throw thresholdError(expression, `"${number}" is not a number`);
  if (isLatency(metric)) {
    if (unit === "%" || unit === "k") {
      throw thresholdError(expression, `latency takes us, ms or s, not ${unit}`);
    }
    value = unit === "s" ? value * 1000 : unit === "us" ? value / 1000 : value;
  } else if (metric in RATIOS) {
    if (unit && unit !== "%") throw thresholdError(expression, `a rate takes % or a 0..1 ratio`);
    value = unit === "%" ? value / 100 : value;
  } else if (unit && unit !== "k") {
    throw thresholdError(expression, `${metric} is a plain number (1k is 1000); drop the "${unit}"`);
  } else if (unit) value *= 1000;
  return {
    expression,
    run: run?.trim(),
    metric,
    op: op as Op,
    value,
    ...defined({ windowMs, selector, kind }),
    ...(k6 !== null ? { k6: true as const } : {}),
  };
}

function checkEndpointRule(expression: string, metric: string, selector: Selector, windowMs?: number): void {
  if (!ENDPOINT_METRICS.has(metric) && anyPercentile(metric) === undefined) {
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
  if (metric === "sessionErrorRate") return null;
  if (metric in RATIOS) return { kind: "success", invert: metric === "errorRate" };
  return null;
}

/** What a rule's metric measures and the unit the rule is written in, read as `parseThreshold` reads it. */
export function ruleUnit(expression: string): { kind: "latency" | "ratio" | "count"; unit: string } {
  const [, , metric = "", , , unit = ""] =
    PATTERN.exec(splitSelector(fromK6(expression) ?? expression).rest.trim()) ?? [];
  return { kind: isLatency(metric) ? "latency" : metric in RATIOS ? "ratio" : "count", unit };
}

function thresholdError(expression: string, message: string): ConfigError {
  return new ConfigError([{ path: `threshold "${expression}"`, message }]);
}

/** A metric's value for a run (ms, rates 0..1); NaN without a sample, so its rule fails. */
export function metricValue(run: RunResult, metric: string): number {
  const key = LATENCY_KEYS[metric];
  if (key) return sampledLatency(run)[key];
  return (RATIOS[metric] ?? COUNTS[metric])(run);
}

/** k6's test run time (s): setup(), the load and its graceful tail, teardown(): k6's counters' rates. */
export const k6RunSec = (run: RunResult): number =>
  Math.max(run.durationSec + ((run.tailMs ?? 0) + (run.hooksMs ?? 0)) / 1000, 0.001);

/**
 * A k6 rule's value: `http_reqs` counts every request sent (setup's and teardown's too) over k6's test run
 * time; a request failed unsent is an `http_req_duration` of 0 ms; a metric with no sample is 0.
 */
function k6Value(run: RunResult, metric: string): number {
  const unanswered = unansweredRequests(run), sent = run.requests + unanswered;
  if (metric === "requests") return sent;
  if (metric === "rps") return sent / k6RunSec(run);
  if (metric === "errorRate") return 1 - judgedSuccessRate(run);
  const key = LATENCY_KEYS[metric];
  const percentile = key ? PERCENTILE_FIELDS.find(([k]) => k === key)?.[1] : anyPercentile(metric);
  if (key === undefined && percentile === undefined) return metricValue(run, metric);
  const zeros = (run.errors.connect ?? 0) + (run.errors.tls ?? 0);
  const answered = latencySampled(run) ? run.requests - (run.unrecordedLatencies ?? 0) : 0;
  if (sent === 0 || (answered === 0 && zeros === unanswered)) return 0;
  // As k6's trend: between the sorted samples (the unsent ones' 0 ms first) around the percentile's rank.
  if (percentile !== undefined && answered > 0 && run.histogramEncoded) {
    return k6QuantileUs(decodeHistogram(run.histogramEncoded), percentile / 100, zeros) / 1000;
  }
  if (key === undefined) return zeros > 0 ? 0 : Number.NaN;
  if (zeros === 0 || answered === 0) return metricValue(run, metric);
  if (key === "min") return 0;
  if (key === "mean") return run.latencyMs.mean * answered / (answered + zeros);
  return metricValue(run, metric);
}

/** A k6 rule's value on a submetric no endpoint matched: 0 as k6's empty one; NaN (fails) for error_code. */
function k6EmptyValue(t: Threshold): number {
  return !t.k6 || t.selector?.error_code !== undefined ? Number.NaN : 0;
}

export function compare(actual: number, op: Op, limit: number): boolean {
  return {
    "<": actual < limit,
    "<=": actual <= limit,
    ">": actual > limit,
    ">=": actual >= limit,
    "==": actual === limit,
    "!=": actual !== limit,
  }[op];
}

/** The thresholds on one run; a shard's (`--segment`) recorded `pending`: `loadlab merge` judges them. */
export function judgeOnRun(thresholds: Threshold[], run: RunResult): ThresholdResult[] {
  if (!run.segment) return evaluateThresholds(thresholds, [run]);
  return thresholds.map((t) => ({
    expression: t.expression,
    run: run.name,
    actual: NaN,
    ok: true,
    pending: true,
  }));
}

/** Evaluates each threshold on every run it applies to; the rule that stopped a run fails on it. */
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
    ? k6EmptyValue(t)
    : t.kind !== undefined
    ? kindValue(judged, t.metric, t.kind)
    : t.k6
    ? k6Value(judged, t.metric)
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

/** A windowed rule: ok when every window with data passes; the actual is the worst window. */
function windowResult(t: Threshold, run: RunResult): ThresholdResult {
  const metric = windowMetric(t.metric)!;
  const windows = windowsOf(run.intervals, t.windowMs!);
  const values = windows.map((w) => windowValue(w, metric)).filter(Number.isFinite);
  const failing = values.filter((v) => !compare(v, t.op, t.value));
  const pick = (xs: number[]) =>
    t.op === "<" || t.op === "<=" ? maxOf(xs) : t.op === "==" ? xs[0] : minOf(xs);
  const actual = values.length === 0 ? Number.NaN : pick(failing.length ? failing : values);
  return { expression: t.expression, run: run.name, actual, ok: values.length > 0 && failing.length === 0 };
}

/** Thresholds on one error kind: the metrics that take one. */
const KIND_METRICS = new Set(["errors", "errorRate"]);

/** `selector` without its `kind` (undefined when nothing else was selected), and the kind. */
function splitKind(selector: Selector | undefined): { selector?: Selector; kind?: string } {
  if (selector?.kind === undefined) return { selector };
  const { kind, ...rest } = selector;
  return { kind, ...(Object.keys(rest).length > 0 ? { selector: rest } : {}) };
}

/** Why `metric` cannot take error kind `kind` (with a window `windowMs`), or null when it can. */
function kindProblem(metric: string, kind: string, windowMs: number | undefined): string | null {
  if (!(ERROR_KINDS as readonly string[]).includes(kind)) {
    const guess = nearest(kind, [...ERROR_KINDS]);
    const kinds = ERROR_KINDS.join(", ");
    return `no error kind "${kind}"${guess ? `; did you mean "${guess}"?` : ""} (the kinds: ${kinds})`;
  }
  if (!KIND_METRICS.has(metric)) {
    return `{kind:${kind}} selects failures: use errors{kind:...} or errorRate{kind:...}, not ${metric}`;
  }
  if (windowMs !== undefined) return `{kind:...} is judged on the whole run, not "over" windows; drop one`;
  return null;
}

/** `metric` (errors or errorRate) of `run` counting only failures of `kind` (and a gRPC status's answers). */
function kindValue(run: RunResult, metric: string, kind: string): number {
  const count = ((run.errors as Record<string, number | undefined>)[kind] ?? 0) +
    (run.statusCodes[kind] ?? 0);
  if (metric === "errors") return count;
  const sends = run.requests + sumValues(run.errors);
  return sends > 0 ? count / sends : 0;
}

type WindowMetric = { kind: "latency"; key: LatencyKey } | { kind: "rps" } | {
  kind: "success";
  invert: boolean;
};

/** Consecutive groups of intervals, each `windowMs` long; a tail under half a window joins the last. */
export function windowsOf(intervals: IntervalResult[], windowMs: number): IntervalResult[][] {
  const windows: IntervalResult[][] = [];
  let current: IntervalResult[] = [], spanMs = 0;
  for (const iv of intervals) {
    current.push(iv);
    spanMs += iv.durationMs;
    if (spanMs >= windowMs) {
      windows.push(current);
      current = [];
      spanMs = 0;
    }
  }
  if (current.length) {
    if (spanMs >= windowMs / 2 || windows.length === 0) windows.push(current);
    else windows[windows.length - 1].push(...current);
  }
  return windows;
}

const INTERVAL_KEYS = new Set<LatencyKey>(["p50", "p75", "p90", "p99"]);

function latencyOf(window: IntervalResult[], key: LatencyKey): number {
  const withRequests = window.filter((iv) => iv.requests > 0);
  if (withRequests.length === 0) return Number.NaN;
  if (withRequests.every((iv) => iv.histogramEncoded)) {
    return summarizeMs(mergeEncoded(withRequests.map((iv) => iv.histogramEncoded!)))[key];
  }
  if (!INTERVAL_KEYS.has(key)) return Number.NaN;
  return maxOf(withRequests.map((iv) => iv[key as "p50" | "p75" | "p90" | "p99"]));
}

/** The value of `metric` in one window (NaN when the window says nothing about it). */
function windowValue(window: IntervalResult[], metric: WindowMetric): number {
  if (metric.kind === "latency") return latencyOf(window, metric.key);
  const t = emptyCounters(), sec = window.reduce((a, iv) => a + iv.durationMs, 0) / 1000;
  for (const iv of window) addCounters(t, iv);
  if (metric.kind === "rps") return servedRps(t.requests, t.drained, sec);
  const rate = successRateOf({ ...t, errors: window.reduce((a, iv) => a + iv.errors, 0) }, NaN);
  return metric.invert ? 1 - rate : rate;
}
