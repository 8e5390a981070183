/**
 * @module
 * One run's results in the shape of k6's end-of-test summary data (what k6 hands `handleSummary(data)`
 * and prints): `metrics` by k6's names (`http_reqs`, `http_req_duration`, `http_req_failed`, `iterations`,
 * `iteration_duration`, `checks`, `vus`, `vus_max`, `data_received`, `data_sent`, and each threshold's
 * submetric such as `http_req_duration{name:me}`), their `thresholds` marked ok or not, and `root_group.checks` with
 * passes and fails. The durations are loadlab's: corrected latency from the intended send (k6 measures
 * from its own send, so under a closed load they agree; an open load's queueing shows here, not in k6).
 * k6's custom metrics are not here: they are counted per worker and not yet carried to results.
 */
import { latencySampled } from "../conclude/responses.ts";
import type { EndpointResult, LatencySummaryMs, ResultsFile, RunResult } from "../schema.ts";
import type { K6Metric, K6SummaryData } from "./k6_summary_text.ts";
import { type Selector, selects } from "../threshold_selector.ts";

const TREND_STATS = ["avg", "min", "med", "max", "p(90)", "p(95)"];

/** A latency summary as a k6 trend (ms). */
function trend(l: LatencySummaryMs | null | undefined): K6Metric {
  const v = l ?? { mean: 0, min: 0, p50: 0, max: 0, p90: 0, p95: 0, p99: 0 };
  return {
    type: "trend",
    contains: "time",
    values: {
      avg: v.mean,
      min: v.min,
      med: v.p50,
      max: v.max,
      "p(90)": v.p90,
      "p(95)": v.p95,
      "p(99)": v.p99,
    },
  };
}

/**
 * Requests that got no answer, by error kind: a `script` error is a session's throw, and a `ws-` one a
 * k6/ws socket's (a message past its cap), neither an HTTP request, as k6's `http_reqs` leaves them out.
 */
const failedOf = (errors: Record<string, number>) =>
  Object.entries(errors).reduce((a, [kind, n]) => kind === "script" || kind.startsWith("ws-") ? a : a + n, 0);

/** `run`'s summary data with the thresholds of `results` judged on it. */
export function k6SummaryData(results: ResultsFile, run: RunResult): K6SummaryData {
  const sec = run.durationSec > 0 ? run.durationSec : 1;
  const flow = run.flows?.[0];
  const checks = (flow?.steps ?? []).flatMap((s) => s.checks ?? []);
  const passes = checks.reduce((a, c) => a + c.passed, 0), fails = checks.reduce((a, c) => a + c.failed, 0);
  const unanswered = failedOf(run.errors), sent = run.requests + unanswered;
  const failed = unanswered + failedStatus(run.statusCodes);
  const vus = Number(run.config.connections ?? run.config.maxConnections ?? 0);
  const metrics: Record<string, K6Metric> = {
    checks: rate(passes, fails),
    data_received: counter(run.bytesRead, sec, "data"),
    data_sent: counter(run.bytesWritten, sec, "data"),
    http_req_duration: trend(run.latencyMs),
    http_req_failed: rate(failed, sent - failed),
    http_reqs: counter(sent, sec, "default"),
    iteration_duration: trend(flow?.sessionMs),
    iterations: counter(flow?.completed ?? 0, sec, "default"),
    vus: { type: "gauge", contains: "default", values: { value: vus, min: vus, max: vus } },
    vus_max: { type: "gauge", contains: "default", values: { value: vus, min: vus, max: vus } },
  };
  // As k6's: a trend with no samples is not in the summary (every iteration threw: it read
  // iteration_duration avg=0.00µs min=0.00µs ..., measured times that never were).
  if (!flow?.sessionMs) delete metrics.iteration_duration;
  if (!latencySampled(run)) delete metrics.http_req_duration;
  for (const t of results.thresholds.filter((t) => t.run === run.name)) {
    const parsed = /^\s*([a-z_]+)(\{[^{}]*\})?\s*:?\s*(.+)$/.exec(t.expression);
    if (parsed === null) continue;
    const name = parsed[1] + (parsed[2] ?? "");
    metrics[name] ??= submetric(parsed[1], parsed[2], run, sec);
    (metrics[name].thresholds ??= {})[parsed[3].trim()] = { ok: t.ok };
  }
  return {
    root_group: {
      name: "",
      path: "",
      id: "d41d8cd98f00b204e9800998ecf8427e",
      groups: [],
      checks: checks.map((c) => ({
        name: c.name,
        path: `::${c.name}`,
        id: c.name,
        passes: c.passed,
        fails: c.failed,
      })),
    },
    options: { summaryTrendStats: TREND_STATS, summaryTimeUnit: "", noColor: false },
    state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: run.durationSec * 1000 },
    metrics,
  };
}

function counter(count: number, sec: number, contains: "default" | "data"): K6Metric {
  return { type: "counter", contains, values: { count, rate: count / sec } };
}

function rate(trues: number, falses: number): K6Metric {
  const total = trues + falses;
  return {
    type: "rate",
    contains: "default",
    values: { rate: total > 0 ? trues / total : 0, passes: trues, fails: falses },
  };
}

/** 4xx and 5xx answers: k6's default expected statuses are 200-399. */
function failedStatus(codes: Record<string, number>): number {
  return Object.entries(codes).filter(([code]) => Number(code) >= 400).reduce((a, [, n]) => a + n, 0);
}

/** A submetric `metric{name:x}` from the run's endpoints the selector picks (pooled). */
function submetric(metric: string, selector: string | undefined, run: RunResult, sec: number): K6Metric {
  // Split at each pair's first colon: a value may hold one (`{name:http://host/post}`).
  const pairs = (selector ?? "").replace(/^\{|\}$/g, "").split(",").map((p) => p.trim()).filter((p) =>
    p !== ""
  )
    .map((p) => [p.slice(0, Math.max(p.indexOf(":"), 0)).trim(), p.slice(p.indexOf(":") + 1).trim()]);
  const wanted: Selector = Object.fromEntries(pairs);
  const picked = (run.endpoints ?? []).filter((e: EndpointResult) => selects(wanted, e));
  const requests = picked.reduce((a, e) => a + e.requests + failedOf(e.errors), 0);
  const failed = picked.reduce((a, e) => a + failedOf(e.errors) + failedStatus(e.statusCodes), 0);
  if (metric === "http_reqs") return counter(requests, sec, "default");
  if (metric === "http_req_failed") return rate(failed, requests - failed);
  return trend(picked.length === 1 ? picked[0].latencyMs : null);
}

/** Whether a k6 rule such as `rate>0.9` holds on a metric's values (an unknown aggregation fails). */
export function k6RuleHolds(values: Record<string, number>, rule: string): boolean {
  const m = /^\s*([a-z]+(?:\([\d.]+\))?)\s*(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/.exec(rule);
  if (m === null || !(m[1] in values)) return false;
  const [a, b] = [values[m[1]], Number(m[3])];
  return { "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a === b, "!=": a !== b }[m[2]] ?? false;
}
