/**
 * @module
 * The main isolate's side of k6's custom metrics: sums the workers' parts (metrics.ts) as k6's summary shows
 * them, and judges `abortOnFail` thresholds while the load runs (`k6LiveJudge`), as k6 does.
 */
import { counterMetric, type K6Metric, rateMetric } from "../../../results/export/k6/summary_text.ts";
import { k6RuleHolds } from "../../../results/export/k6/summary.ts";
import type { AbortedBy } from "../../../results/thresholds/abort.ts";
import type { MetricPart } from "./metrics.ts";
import { inputs, METRICS_CHANNEL, runChannel } from "../isolate_inputs.ts";

/** A threshold with `abortOnFail` on a metric sent here: `rate<=0.05` on `check_failure_rate`. */
interface LiveRule {
  metric: string;
  rule: string;
  /** Measured time before which it is not judged (k6's `delayAbortEval`). */
  delayMs: number;
}

/** Most values a trend keeps (8 MiB of them): past it, a uniform sample of this many. */
export const MAX_TREND_VALUES = 1_048_576;

/** A trend's values: all up to `cap`, then a uniform sample (reservoir sampling); count, min, max exact. */
export class TrendSample {
  readonly values: number[] = [];
  seen = 0;
  min = Infinity;
  max = -Infinity;

  constructor(readonly cap = MAX_TREND_VALUES) {}

  add(values: readonly number[]): void {
    for (const v of values) {
      this.seen++;
      if (v < this.min) this.min = v;
      if (v > this.max) this.max = v;
      if (this.values.length < this.cap) this.values.push(v);
      else {
        const k = Math.floor(Math.random() * this.seen);
        if (k < this.cap) this.values[k] = v;
      }
    }
  }

  /** Whether values were left out (the percentiles are then the sample's). */
  get sampled(): boolean {
    return this.seen > this.values.length;
  }
}

/** How often k6 judges its thresholds while a test runs (its engine's 2 s tick); the live rules too. */
export const JUDGE_EVERY_MS = 2_000;

const totals = new Map<string, MetricPart>();
/** Each trend's values, kept apart from its part (whose `values` stay empty). */
const trends = new Map<string, TrendSample>();
let listening: BroadcastChannel | null = null;
let live: LiveRule[] = [];
/** The live rule that failed first: every later judgement (each load of the run) sees it. */
let failed: AbortedBy | null = null;
/** The last tick judged (measured time over JUDGE_EVERY_MS). */
let judgedTick = 0;
/** The isolates' sends counted before this collection began, and the sends received since. */
let sendsBefore = 0, received = 0;
/** Longest wait at the end for sends still on their way (a busy machine delays them). */
const ARRIVAL_WAIT_MS = 10_000;

/** Starts listening, the totals of any run before dropped; `rules` are judged live by `k6LiveJudge`. */
export function collectK6Metrics(rules: LiveRule[] = []): void {
  live = rules, failed = null, judgedTick = 0, totals.clear(), trends.clear();
  sendsBefore = Atomics.load(inputs.metricSends, 0), received = 0;
  if (listening !== null) return;
  listening = runChannel(METRICS_CHANNEL);
  listening.onmessage = (e: MessageEvent<unknown>) => {
    if (!Array.isArray(e.data)) return;
    received++;
    for (const part of e.data) if (isPart(part)) add(part);
  };
}

const KINDS = new Set(["trend", "counter", "rate", "gauge"]);

/** Whether `part` has metrics.ts's shape: a script can post on the named channel too, and that is dropped. */
function isPart(part: unknown): part is MetricPart {
  if (typeof part !== "object" || part === null) return false;
  const p = part as Record<string, unknown>;
  return typeof p.name === "string" && KINDS.has(p.kind as string) && typeof p.time === "boolean" &&
    Array.isArray(p.values) && p.values.every((v) => typeof v === "number") &&
    [p.sum, p.trues, p.count].every((n) => typeof n === "number");
}

function add(part: MetricPart): void {
  let total = totals.get(part.name);
  if (total === undefined) totals.set(part.name, total = { ...part, values: [], count: 0, sum: 0, trues: 0 });
  total.count += part.count, total.sum += part.sum, total.trues += part.trues;
  if (part.kind === "trend") trendOf(part.name).add(part.values);
  else if (part.kind === "gauge") {
    // The parts' spans joined: the last part's value, the least and greatest of any part.
    const [value, min = value, max = value] = part.values;
    const [, seenMin = min, seenMax = max] = total.values;
    total.values = [value, Math.min(min, seenMin), Math.max(max, seenMax)];
  }
}

/** The kept values of trend `name` (bounded, a sample past its cap). */
function trendOf(name: string): TrendSample {
  let trend = trends.get(name);
  if (trend === undefined) trends.set(name, trend = new TrendSample());
  return trend;
}

/**
 * Judges the run's rules at `nowMs` of measured time: `builtIn` if failing, else the first live rule failing,
 * every 2 s (k6's tick) once its delay passed and its metric has a value; null when none, or no k6 script.
 */
export function k6LiveJudge(): ((nowMs: number, builtIn: AbortedBy | null) => AbortedBy | null) | null {
  return listening === null ? null : judge;
}

function judge(nowMs: number, builtIn: AbortedBy | null): AbortedBy | null {
  if (failed !== null) return failed;
  const tick = Math.floor(nowMs / JUDGE_EVERY_MS);
  if (tick <= judgedTick) return null;
  judgedTick = tick;
  if (builtIn !== null) return failed = builtIn;
  for (const r of live) {
    const total = totals.get(r.metric);
    if (nowMs < r.delayMs || total === undefined) continue;
    const stat = /^\s*([a-z]+(?:\([\d.]+\))?)/.exec(r.rule)?.[1] ?? "";
    const values = metricOf(total, Math.max(nowMs, 1) / 1000, percentileStats([stat])).values;
    if (k6RuleHolds(values, r.rule)) continue;
    failed = { threshold: `${r.metric}: ${r.rule}`, atSec: nowMs / 1000, actual: values[stat] ?? 0 };
    return failed;
  }
  return null;
}

/** Stops listening; the custom metrics as k6's summary metrics, rates over `durationSec`. */
export async function k6CustomMetrics(
  durationSec: number,
  percentiles: readonly string[] = [],
): Promise<Record<string, K6Metric>> {
  // Every isolate counted its sends before making them: wait for those still on their way.
  const sent = () => Atomics.load(inputs.metricSends, 0) - sendsBefore;
  const endMs = performance.now() + ARRIVAL_WAIT_MS;
  while (listening !== null && received < sent() && performance.now() < endMs) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  if (listening !== null && received < sent()) {
    console.error(
      `warning: ${sent() - received} of ${sent()} sends of the script's metrics did not arrive in ` +
        `${ARRIVAL_WAIT_MS / 1000} s: its custom metrics and checks may count short`,
    );
  }
  listening?.close();
  listening = null;
  const out: Record<string, K6Metric> = {};
  for (const t of totals.values()) {
    // The VUs' checks sent for abortOnFail come from the run (setup's and teardown's in); else the script's.
    if (t.name === "checks" && live.some((r) => r.metric === "checks")) continue;
    out[t.name] = metricOf(t, durationSec > 0 ? durationSec : 1, percentiles);
  }
  for (const [name, trend] of trends) {
    if (!trend.sampled) continue;
    console.error(
      `warning: ${name}: its median and percentiles are read from a uniform sample of ` +
        `${MAX_TREND_VALUES.toLocaleString("en-US")} of its ${trend.seen.toLocaleString("en-US")} values ` +
        "(loadlab keeps at most that many a trend); its count, avg, min and max are exact",
    );
  }
  return out;
}

/** The `p(N)` stats among `stats` (rules, summaryTrendStats): k6 computes any percentile named. */
export function percentileStats(stats: readonly string[]): string[] {
  const named = stats.map((s) => /^\s*(p\((\d+(?:\.\d+)?)\))/.exec(s));
  return named.filter((m) => m !== null && Number(m[2]) <= 100).map((m) => m![1]);
}

function metricOf(t: MetricPart, sec: number, percentiles: readonly string[] = []): K6Metric {
  switch (t.kind) {
    case "trend": {
      const trend = trendOf(t.name);
      const sorted = Float64Array.from(trend.values).sort();
      // As k6's trend sink: between the two values around rank q(n - 1), linearly ([1, 3] has median 2).
      const at = (q: number) => {
        if (sorted.length === 0) return 0;
        const rank = q * (sorted.length - 1), low = Math.floor(rank);
        return sorted[low] + (sorted[Math.ceil(rank)] - sorted[low]) * (rank - low);
      };
      const min = trend.seen > 0 ? trend.min : 0, max = trend.seen > 0 ? trend.max : 0;
      const values: Record<string, number> = { avg: t.sum / (t.count || 1), min, med: at(0.5), max };
      for (const p of ["p(90)", "p(95)", "p(99)", ...percentiles]) {
        values[p] = at(Number(p.slice(2, -1)) / 100);
      }
      values.count = t.count;
      return { type: "trend", contains: t.time ? "time" : "default", values };
    }
    case "counter":
      return counterMetric(t.sum, sec);
    case "rate":
      return rateMetric(t.trues, t.count - t.trues);
    default: {
      const [value = 0, min = value, max = value] = t.values;
      return { type: "gauge", contains: "default", values: { value, min, max } };
    }
  }
}
