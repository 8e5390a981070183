/**
 * @module
 * One run as k6's end-of-test summary data (`handleSummary(data)`); latency is loadlab's corrected one.
 */
import { latencySampled, unansweredRequests } from "../../conclude/responses.ts";
import { createHistogram, decodeHistogram, k6QuantileUs, summarizeMs } from "../../histogram.ts";
import type { LatencySummaryMs, ResultsFile, RunResult } from "../../schema/results.ts";
import { PERCENTILE_FIELDS } from "../../schema/keys.ts";
import {
  allChecks,
  counterMetric,
  type K6Group,
  type K6Metric,
  type K6SummaryData,
  rateMetric,
} from "./summary_text.ts";
import type { K6ScenarioPart } from "./summary_v1.ts";
import { createHash } from "node:crypto";
import {
  failedStatusOf,
  leavesOut,
  leftOutTags,
  selectedRun,
  type Selector,
  splitSelector,
  unjudgedUnansweredOf,
} from "../../thresholds/selector.ts";
import { compare, k6RunSec, type Op } from "../../thresholds/threshold.ts";

/** The stats k6 shows of a trend when the script's `summaryTrendStats` does not say. */
const K6_TREND_STATS = ["avg", "min", "med", "max", "p(90)", "p(95)"];

/** What the script's options ask of the summary: trend columns, time unit (k6's when unset), idle VUs. */
/** `percentiles`: those the script's rules judge the run's iterations by (k6 judges any it is not shown). */
type K6SummaryOptions = {
  trendStats?: readonly string[];
  timeUnit?: string;
  idleVus?: number;
  percentiles?: readonly string[];
};

/**
 * A latency summary (else `encoded`'s) as a k6 trend (ms), its percentiles k6's (between samples) where
 * `encoded` holds them; `zeros` more samples of 0 ms before them (k6's requests failed unsent).
 */
function trend(
  l: LatencySummaryMs | null | undefined,
  stats: readonly string[] = [],
  samples = 0,
  encoded?: string | null,
  zeros = 0,
): K6Metric {
  const h = encoded ? decodeHistogram(encoded) : null;
  const v = l ?? summarizeMs(h ?? createHistogram());
  const at = (p: number, fallback?: number) =>
    h && h.totalCount > 0 ? k6QuantileUs(h, p / 100, zeros) / 1000 : zeros > 0 ? 0 : fallback;
  const avg = samples + zeros > 0 ? v.mean * samples / (samples + zeros) : v.mean;
  const values: Record<string, number> = { avg, min: zeros > 0 ? 0 : v.min, med: at(50, v.p50)!, max: v.max };
  for (const stat of new Set([...stats, "p(90)", "p(95)", "p(99)"])) {
    if (stat === "count") values.count = samples + zeros;
    if (!stat.startsWith("p(")) continue;
    const n = Number(stat.slice(2, -1));
    const key = PERCENTILE_FIELDS.find(([, p]) => p === n)?.[0];
    const value = at(n, key === undefined ? undefined : v[key] as number);
    if (value !== undefined) values[stat] = value;
  }
  return { type: "trend", contains: "time", values };
}

/** `run`'s summary data with `results`' thresholds judged on it, in the stats and unit the script asks. */
export function k6SummaryData(
  results: ResultsFile,
  run: RunResult,
  asked: K6SummaryOptions = {},
): K6SummaryData {
  const stats = asked.trendStats ?? K6_TREND_STATS;
  // The trends hold the percentiles rules name too, those no column shows (`p(99.9)<500`).
  const ruled = results.thresholds.flatMap((t) => t.expression.match(/p\(\d+(\.\d+)?\)/g) ?? []);
  const judged = [...stats, ...asked.percentiles ?? [], ...ruled];
  const sec = k6RunSec(run);
  const flow = run.flows?.[0];
  const checks = checksOf(run);
  const passes = checks.reduce((a, c) => a + c.passed, 0), fails = checks.reduce((a, c) => a + c.failed, 0);
  // As k6's: an iteration that threw (fail()) is one too, and timed.
  const iterations = (flow?.completed ?? 0) + (flow?.failed ?? 0);
  const metrics: Record<string, K6Metric> = {
    checks: rateMetric(passes, fails),
    data_received: counterMetric(run.bytesRead, sec, "data"),
    data_sent: counterMetric(run.bytesWritten, sec, "data"),
    ...httpMetrics(run, sec, judged, run.histogramEncoded),
    iteration_duration: trend(flow?.sessionMs, judged, iterations, flow?.sessionHistogramEncoded),
    iterations: counterMetric(iterations, sec),
    ...vusOf(run, asked.idleVus),
  };
  // The open model's sends that found no free VU, and (as k6's iteration executors past maxDuration, not
  // aborted) the iterations a count (`requests`) bounded in time never started: k6's dropped iterations.
  const cut = "requests" in run.config && run.config.durationMs && !run.abortedBy && !run.setupError;
  const unstarted = cut ? Math.max(0, Number(run.config.requests) - (flow?.sessions ?? 0)) : 0;
  const dropped = run.droppedSends + (unstarted || 0);
  if (dropped > 0) metrics.dropped_iterations = counterMetric(dropped, sec);
  // As k6's: a trend with no samples is not in the summary.
  if (!flow?.sessionMs) delete metrics.iteration_duration;
  // As k6 times them, requests that failed before they were sent (refused, DNS, TLS) last 0 ms.
  const unsent = (run.errors.connect ?? 0) + (run.errors.tls ?? 0);
  if (!latencySampled(run) && (unsent === 0 || unsent < unansweredRequests(run))) {
    delete metrics.http_req_duration;
  }
  // k6 shows the expected responses' durations under every run's: here where they are measured apart.
  const expected = selectedRun(run, { expected_response: "true" });
  if (
    metrics.http_req_duration && expected && expected.requests > 0 && Number.isFinite(expected.latencyMs.mean)
  ) {
    const tags = "{expected_response:true}";
    metrics[`http_req_duration${tags}`] = httpSubmetrics(tags, run, sec, stats).http_req_duration;
  }
  for (const t of results.thresholds.filter((t) => t.run === run.name)) {
    // The rule as the script wrote it, spaces kept (k6's export names it so): after the `: ` the mapping put.
    const parsed = /^\s*([a-z_]+)(\{.*\})?\s*:? ?(.+)$/.exec(t.expression);
    if (parsed === null) continue;
    const name = parsed[1] + (parsed[2] ?? "");
    metrics[name] ??= httpMetricOf(parsed[1], httpSubmetrics(parsed[2], run, sec, judged));
    (metrics[name].thresholds ??= {})[parsed[3]] = { ok: t.ok };
  }
  return {
    root_group: groupsOf(checks, leftOutTags((run.config.script as { systemTags?: unknown })?.systemTags)),
    options: { summaryTrendStats: [...stats], summaryTimeUnit: asked.timeUnit ?? "", noColor: false },
    state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: sec * 1000 },
    metrics,
  };
}

/** k6's `vus` (connections open per interval), `vus_max` (users, or preconnected, or most open; + idle). */
function vusOf(run: RunResult, idle = 0): Record<"vus" | "vus_max", K6Metric> {
  const gauge = (value: number, min = value, max = value): K6Metric => ({
    type: "gauge",
    contains: "default",
    values: { value, min, max },
  });
  // None under a second: k6 samples them from a second after its start (before setup()) to teardown()'s end.
  if (k6RunSec(run) < 1) return { vus: gauge(0), vus_max: gauge(0) };
  // Intervals before the first connection or after the last closed are the run's edges, not its users.
  const open = run.intervals.map((iv) => Number(iv.connections)).filter((n) => Number.isFinite(n) && n > 0);
  const configured = Number(run.config.connections ?? run.config.preConnect ?? run.config.maxConnections) ||
    0;
  const most = Math.max(0, ...open);
  const last = open.at(-1) ?? configured;
  const max = Math.max(configured, most) + idle;
  return { vus: gauge(last, Math.min(...open, last), Math.max(most, last)), vus_max: gauge(max) };
}

/**
 * k6's root group from the run's checks, nested by each check's path; ids are the path's MD5, as k6's. As
 * k6's, it reads a check's group and name from its sample's tags: none when `left` (out) holds `group`.
 */
function groupsOf(
  checks: ReadonlyArray<{ name: string; passed: number; failed: number }>,
  left: ReadonlySet<string> = new Set(),
): K6Group {
  const root: K6Group = { name: "", path: "", id: md5(""), groups: [], checks: [] };
  for (const c of left.has("group") ? [] : checks) {
    const grouped = c.name.startsWith("::") ? c.name.split("::").slice(1) : [c.name];
    let group = root;
    for (const name of grouped.slice(0, -1)) {
      const path = `${group.path}::${name}`;
      let inner = group.groups.find((g) => g.path === path);
      if (inner === undefined) {
        group.groups.push(inner = { name, path, id: md5(path), groups: [], checks: [] });
      }
      group = inner;
    }
    const name = grouped.at(-1)!, path = `${group.path}::${name}`;
    if (left.has("check")) continue;
    const same = group.checks.find((k) => k.path === path);
    if (same) same.passes += c.passed, same.fails += c.failed;
    else group.checks.push({ name, path, id: md5(path), passes: c.passed, fails: c.failed });
  }
  return root;
}

const md5 = (text: string): string => createHash("md5").update(text).digest("hex");

/** k6's HTTP metrics of `view`: the run, or the endpoints a selector picks (`encoded`: more percentiles). */
function httpMetrics(view: RunResult | null, sec: number, stats: readonly string[], encoded?: string | null) {
  const unanswered = view === null ? 0 : unansweredRequests(view);
  const requests = (view?.requests ?? 0) + unanswered;
  const skipped = view === null ? 0 : unjudgedUnansweredOf(view);
  const failed = view === null ? 0 : unanswered - skipped + failedStatusOf(view);
  const unjudged = view === null ? 0 : failedStatusOf(view, null) + skipped;
  const zeros = (view?.errors.connect ?? 0) + (view?.errors.tls ?? 0);
  return {
    http_req_duration: trend(view?.latencyMs, stats, view?.requests ?? 0, encoded, zeros),
    http_req_failed: rateMetric(failed, requests - failed - unjudged),
    http_reqs: counterMetric(requests, sec),
  };
}

/** k6's HTTP metrics `metric{name:x}` of the run's endpoints the selector picks (pooled). */
function httpSubmetrics(selector: string | undefined, run: RunResult, sec: number, stats: readonly string[]) {
  // The view the threshold was judged on: the picked endpoints' (and responses') counts and latency.
  const view = selectedRun(run, pairsOf(selector ?? ""));
  return httpMetrics(view, sec, stats, view?.histogramEncoded);
}

/** `metric` among the HTTP metrics: its counts, else its durations. */
const httpMetricOf = (metric: string, http: ReturnType<typeof httpMetrics>) =>
  metric === "http_reqs" || metric === "http_req_failed" ? http[metric] : http.http_req_duration;

/** A submetric judged on the run's own counts (checks, iterations, bytes, coded failures); else null. */
export function afterRunSubmetric(
  run: RunResult,
  metric: string,
  stats: readonly string[],
  codeOf?: (kind: string, message: string) => { code: number },
): K6Metric | null {
  const brace = metric.indexOf("{");
  if (brace < 0) return null;
  const [name, selector] = [metric.slice(0, brace), metric.slice(brace)];
  const sec = k6RunSec(run);
  // A tag the run's samples leave out: k6's submetric of it sees none of the run's.
  if (leavesOut(run, pairsOf(selector))) run = { ...run, endpoints: [], flows: [] };
  if (name === "checks") return checksSubmetric(run, selector);
  const { error_code: code, ...rest } = pairsOf(selector);
  // A failure's code tags k6's HTTP metrics; a custom metric's `error_code` is the script's own tag.
  if (code !== undefined && codeOf !== undefined && name.startsWith("http_req")) {
    let n = 0;
    for (const [kind, count] of Object.entries(selectedRun(run, rest)?.errors ?? {})) {
      const seen = Object.entries(run.errorMessages[kind] ?? { "": 1 });
      const coded = seen.filter(([message]) => codeOf(kind, message).code === Number(code));
      n += Math.round(count * sumOf(coded) / sumOf(seen));
    }
    // Such a request has no response: k6 times it 0 ms and counts it failed.
    if (name === "http_reqs") return counterMetric(n, sec);
    if (name === "http_req_failed") return rateMetric(n, 0);
    return trend(null, stats, n);
  }
  if (name === "data_sent" || name === "data_received") {
    const { scenario } = pairsOf(selector);
    const picked = selectedRun(run, scenario === undefined ? {} : { scenario })?.endpoints ?? [];
    const bytes = picked.reduce((a, e) => a + (name === "data_sent" ? e.bytesWritten : e.bytesRead), 0);
    return counterMetric(bytes, sec, "data");
  }
  if (name !== "iterations" && name !== "iteration_duration") return null;
  const { scenario, group } = pairsOf(selector);
  const flow = run.flows?.[0];
  const own = (group === undefined ? flow?.loads?.[scenario] : { completed: 0 }) ??
    (flow && flow.loads === undefined && scenario === scenarioOf(run)
      ? { completed: flow.completed, sessionHistogramEncoded: flow.sessionHistogramEncoded }
      : { completed: 0 });
  if (name === "iterations") return counterMetric(own.completed, sec);
  return trend(null, stats, own.completed, own.sessionHistogramEncoded);
}

const sumOf = (counts: Array<[string, number]>) => counts.reduce((a, [, c]) => a + c, 0);

/** Each scenario's part of a run of several (`--summary-mode full`); none for a run of one. */
export function k6ScenarioParts(run: RunResult, stats: readonly string[]): Record<string, K6ScenarioPart> {
  const flow = run.flows?.[0];
  const out: Record<string, K6ScenarioPart> = {};
  const sec = k6RunSec(run);
  // As k6's: the scenarios' parts are read from the `scenario` tag.
  for (const name of leavesOut(run, { scenario: "" }) ? [] : Object.keys(flow?.loads ?? {})) {
    const picked = `{scenario:${name}}`;
    const checks = checksOf(run).flatMap((c) => {
      const own = c.loads?.[name];
      return own && own.passed + own.failed > 0 ? [{ name: c.name, ...own }] : [];
    });
    const metrics: Record<string, K6Metric> = {};
    const http = selectedRun(run, { scenario: name });
    if (http !== null && http.requests + unansweredRequests(http) > 0) {
      Object.assign(metrics, httpSubmetrics(picked, run, sec, stats));
      if (!latencySampled(http)) delete metrics.http_req_duration;
    }
    for (const m of ["iterations", "iteration_duration", "data_received", "data_sent"]) {
      const part = afterRunSubmetric(run, `${m}${picked}`, stats);
      if (part !== null) metrics[m] = part;
    }
    if (metrics.iterations?.values.count === 0) delete metrics.iteration_duration;
    out[name] = { checks: allChecks(groupsOf(checks)), metrics };
  }
  return out;
}

function scenarioOf(run: RunResult): string {
  return run.load === undefined || run.load === "k6" ? "default" : run.load;
}

/** `checks{scenario:api}`, `checks{group:::api}`, `checks{check:...}`: the pass rate of those checks. */
function checksSubmetric(run: RunResult, selector: string): K6Metric {
  const { scenario, ...wanted } = pairsOf(selector);
  const counted = checksOf(run).flatMap((c) => {
    if (scenario === undefined) return [c];
    if (c.loads !== undefined) return [{ name: c.name, ...(c.loads[scenario] ?? { passed: 0, failed: 0 }) }];
    return scenario === scenarioOf(run) ? [c] : [];
  });
  // A check's tags: its name, and its group's path (its own path less `::name`).
  const picked = allChecks(groupsOf(counted)).filter((k) => {
    const tags: Record<string, string> = { check: k.name, group: k.path.slice(0, -k.name.length - 2) };
    return Object.entries(wanted).every(([tag, v]) => tags[tag] === v);
  });
  return rateMetric(picked.reduce((a, k) => a + k.passes, 0), picked.reduce((a, k) => a + k.fails, 0));
}

/** The checks of the run's steps, in their order. */
const checksOf = (run: RunResult) => (run.flows?.[0]?.steps ?? []).flatMap((s) => s.checks ?? []);

const pairsOf = (selector: string): Selector => splitSelector(selector).selector ?? {};

/** Whether a k6 rule such as `rate>0.9` holds on a metric's values (an unknown aggregation fails). */
export function k6RuleHolds(values: Record<string, number>, rule: string): boolean {
  const m = /^\s*([a-z]+(?:\([\d.]+\))?)\s*=?(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/.exec(rule);
  return m !== null && m[1] in values && compare(values[m[1]], m[2] as Op, Number(m[3]));
}
