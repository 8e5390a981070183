/**
 * @module
 * An Artillery script's run as Artillery's metrics: loadlab's results and what its hooks `events.emit`
 * (runtime.ts, over k6's custom-metric channel) as counters, rates and summaries (`http.response_time.p99`),
 * which its `ensure` checks, its summary and its `-o` report read.
 */
import { k6CustomMetrics } from "../k6/metrics_channel.ts";
import type { K6Metric } from "../../../results/export/k6/summary_text.ts";
import type { ResultsFile, RunResult } from "../../../results/schema/results.ts";
import {
  bucketValuesUs,
  forEachBucket,
  mergeEncoded,
  summarizeMs,
  usToMs,
} from "../../../results/histogram.ts";
import { writeTextAtomic } from "../../../system/output_file.ts";
import { k6RuleHolds } from "../../../results/export/k6/summary.ts";

/** An `ensure` check `metric op value` (`maxErrorRate`: % of users not completed), shown as `shown`. */
export type EnsureRule = { metric: string; op: string; value: number | string; shown: string };

/** What an import leaves to the run's end: its checks, the apdex plugin's threshold, the `-o` file. */
export interface ArtilleryEnd {
  rules: EnsureRule[];
  apdex?: { thresholdMs: number; score: boolean };
}

/** Artillery's aggregations of a summary and the key each has in a k6 trend (rounded to 0.1 as there). */
const SUMMARY = Object.fromEntries(
  "min max count mean:avg p50:p(50) median:med p75:p(75) p90:p(90) p95:p(95) p99:p(99) p999:p(99.9)"
    .split(" ").map((kv) => [kv.split(":")[0], kv.split(":").at(-1)!]),
);
const SHOWN = ["min", "max", "mean", "median", "p95", "p99"];
/** loadlab's error kinds by the Node error code Artillery counts them under (`errors.ETIMEDOUT`). */
const ERROR_CODES: Record<string, string> = {
  connect: "ECONNREFUSED",
  timeout: "ETIMEDOUT",
  reset: "ECONNRESET",
  tls: "EPROTO",
};
const round1 = (n: number) => Math.round(n * 10) / 10;

/** A histogram's summary as Artillery's (`min`, `max`, `count`, `mean`, `p50`, `median`, ... `p999`). */
function summaryOf(encoded: string[]): Record<string, number> | undefined {
  const h = mergeEncoded(encoded.filter((e) => e));
  if (h.totalCount === 0) return undefined;
  const s = summarizeMs(h);
  const at = { ...s, count: h.totalCount, median: s.p50 } as Record<string, number>;
  return Object.fromEntries(Object.keys(SUMMARY).map((k) => [k, round1(at[k])]));
}

/** A run's numbers, or an interval's: what one period of the report adds up. */
type Part =
  & Pick<RunResult, "requests" | "errors" | "statusCodes" | "bytesRead" | "startedAt" | "durationSec">
  & Partial<Pick<RunResult, "flows" | "errorMessages" | "droppedSends" | "histogramEncoded" | "endpoints">>;

/** The runs' numbers as one period of Artillery's report (`aggregate`, an `intermediate`), hooks' apart. */
function periodOf(runs: readonly Part[]) {
  const counters: Record<string, number> = {},
    add = (k: string, n: number) => counters[k] = (counters[k] ?? 0) + n;
  for (const run of runs) {
    for (const flow of run.flows ?? []) {
      add(`vusers.created_by_name.${flow.name}`, flow.sessions);
      add("vusers.created", flow.sessions);
      add("vusers.failed", flow.failed);
      add("vusers.completed", flow.completed);
      if (flow.captureFailed) add("errors.Failed capture or match", flow.captureFailed);
    }
    const errors = Object.entries(run.errors).filter(([k]) => k !== "script");
    add("http.requests", run.requests + errors.reduce((n, [, e]) => n + e, 0));
    for (const [code, n] of Object.entries(run.statusCodes)) {
      add(`http.codes.${code}`, n);
      add("http.responses", n);
    }
    for (const [kind, n] of errors) add(`errors.${ERROR_CODES[kind] ?? kind}`, n);
    // A failed user's error by its message, as Artillery counts it (`errors.Failed capture or match`); a
    // request's failure that ends a session script's user is counted once, by its kind.
    const sent = new Set(errors.flatMap(([kind]) => Object.keys(run.errorMessages?.[kind] ?? {})));
    for (const [message, n] of Object.entries(run.errorMessages?.script ?? {})) {
      if (!sent.has(message)) add(`errors.${message}`, n);
    }
    add("http.downloaded_bytes", run.bytesRead);
    // Artillery 2 names each request's codes by its endpoint whether or not the plugin is named.
    for (const e of run.endpoints ?? []) {
      for (const [code, n] of Object.entries(e.statusCodes)) {
        add(`plugins.metrics-by-endpoint.${e.name}.codes.${code}`, n);
      }
    }
    // An arrival past maxVusers is dropped here, skipped there.
    if (run.droppedSends) add("vusers.skipped", run.droppedSends);
  }
  const startMs = Math.min(...runs.map((r) => Date.parse(r.startedAt)));
  const sec = runs.reduce((a, r) => a + r.durationSec, 0);
  const summaries: Record<string, Record<string, number>> = {};
  const times = summaryOf(runs.map((r) => r.histogramEncoded ?? ""));
  if (times) summaries["http.response_time"] = times;
  const sessions = summaryOf(runs.flatMap((r) => r.flows ?? []).map((f) => f.sessionHistogramEncoded ?? ""));
  if (sessions) summaries["vusers.session_length"] = sessions;
  const rates: Record<string, number> = {
    "http.request_rate": Math.round((counters["http.requests"] ?? 0) / Math.max(sec, 1)),
  };
  return {
    counters,
    rates,
    summaries,
    period: startMs,
    firstMetricAt: startMs,
    lastMetricAt: startMs + sec * 1000,
  };
}

/**
 * A run's intervals grouped by Artillery's 10 s periods of the wall clock, each as one entry of its
 * `intermediate` (its users are the aggregate's only: loadlab counts sessions per run).
 */
function periodsOf(run: RunResult) {
  const periods = new Map<number, Part[]>(), startMs = Date.parse(run.startedAt);
  for (const i of run.intervals) {
    const atMs = startMs + i.startMs, period = atMs - atMs % PERIOD_MS;
    const part = { ...i, startedAt: new Date(atMs).toISOString(), durationSec: i.durationMs / 1000 };
    periods.set(period, [...periods.get(period) ?? [], { ...part, errors: i.errorKinds ?? {} }]);
  }
  return [...periods].map(([period, parts]) => ({ ...periodOf(parts), period }));
}
const PERIOD_MS = 10_000;

/** What the hooks emitted, added to `period` (counters, rates a second, summaries); its lines printed. */
function addEmitted(period: Period, metrics: Record<string, K6Metric>): string[] {
  return Object.keys(metrics).sort().map((name) => {
    // A rate's values are its events' times: their count a second from the first to the last (at least 1 s).
    const m = metrics[name], v = m.values;
    if (m.contains === "time") {
      period.rates[name] = Math.round(v.count / Math.max((v.max - v.min) / 1000, 1));
      return `${name}: ${period.rates[name]}/sec`;
    }
    if (m.type !== "trend") return `${name}: ${period.counters[name] = v.count}`;
    const summary = period.summaries[name] = Object.fromEntries(
      Object.entries(SUMMARY).map(([k, at]) => [k, round1(v[at])]),
    );
    return `${name}: ${SHOWN.map((k) => `${k} ${summary[k]}`).join(", ")} (${v.count} values)`;
  });
}
type Period = ReturnType<typeof periodOf>;

/** A period's metrics by one name each, as the ensure plugin reads them (`name.p99` for a summary). */
function flatOf({ counters, rates, summaries }: Period): Record<string, number> {
  const flat: Record<string, number> = { ...counters, ...rates };
  for (const [name, s] of Object.entries(summaries)) {
    for (const [k, v] of Object.entries(s)) flat[`${name}.${k}`] = v;
  }
  return flat;
}

/**
 * The run's end as Artillery's: the hooks' metrics printed (unless `quiet`), the `ensure` checks judged
 * as thresholds of the run (a metric never seen fails its check, as there), the report written to
 * `output`; returns what results.json gains (`scriptMetrics`: what the hooks emitted and apdex counted).
 */
export async function endArtilleryRun(
  results: ResultsFile,
  { rules, apdex }: ArtilleryEnd,
  { quiet = false, output }: { quiet?: boolean; output?: string },
): Promise<Pick<ResultsFile, "thresholds"> & { scriptMetrics: Record<string, number> }> {
  const sec = results.runs.reduce((a, r) => a + r.durationSec, 0);
  const emitted = await k6CustomMetrics(sec, ["p(50)", "p(75)", "p(99.9)"]);
  const aggregate = periodOf(results.runs),
    own: Period = { ...aggregate, counters: {}, rates: {}, summaries: {} };
  const lines = addEmitted(own, emitted);
  if (apdex) apdexOf(results, apdex, own.counters);
  for (const part of ["counters", "rates", "summaries"] as const) Object.assign(aggregate[part], own[part]);
  const scriptMetrics = flatOf(own), flat = flatOf(aggregate);
  // As `artillery run -q`: no summary.
  if (lines.length > 0 && !quiet) {
    console.log(`\nThe script's own metrics (events.emit):\n  ${lines.join("\n  ")}`);
  }
  // A run a hook's throw ended writes no report, as Artillery's process exits first.
  if (output && !results.runs.some((r) => r.abortedBy)) {
    const intermediate = results.runs.flatMap(periodsOf);
    await writeTextAtomic(output, JSON.stringify({ aggregate, intermediate }, null, 2) + "\n");
  }
  const run = results.runs.at(-1)?.name ?? "";
  // maxErrorRate is Artillery's `(vusers.created - vusers.completed) / vusers.created * 100`.
  flat.maxErrorRate = (flat["vusers.created"] - flat["vusers.completed"]) / flat["vusers.created"] * 100;
  const judged = rules.map(({ metric, op, value, shown }) => {
    // Another metric on the right is read as a number too; one never seen fails the check.
    const limit = typeof value === "string" ? flat[value] : value;
    const seen = Number.isFinite(flat[metric]) && Number.isFinite(limit);
    const ok = k6RuleHolds(seen ? { v: flat[metric] } : {}, `v${op}${limit}`);
    return { expression: shown, run, actual: flat[metric] ?? NaN, ok, unmatched: !seen };
  });
  return { scriptMetrics, thresholds: [...results.thresholds, ...judged] };
}

/** The apdex plugin's counters of the run's latencies (satisfied <= T ms, tolerated <= 4T) and its score. */
function apdexOf(
  results: ResultsFile,
  apdex: NonNullable<ArtilleryEnd["apdex"]>,
  flat: Record<string, number>,
) {
  const [s, t, f] = ["satisfied", "tolerated", "frustrated"].map((k) => `apdex.${k}`);
  const h = mergeEncoded(results.runs.map((r) => r.histogramEncoded));
  Object.assign(flat, { [s]: 0, [t]: 0, [f]: 0 });
  forEachBucket(h, (slot, n) => {
    const ms = usToMs(bucketValuesUs(h, slot).medianUs);
    flat[ms <= apdex.thresholdMs ? s : ms <= 4 * apdex.thresholdMs ? t : f] += n;
  });
  const score = (flat[s] + flat[t] / 2) / (h.totalCount || 1);
  if (!apdex.score || h.totalCount === 0) return;
  flat.apdex = score;
  const rank = [[0.94, "excellent"], [0.85, "good"], [0.7, "fair"], [0.49, "poor"]].find((r) =>
    score >= +r[0]
  );
  console.log(`\nApdex score: ${score} (${rank?.[1] ?? "unacceptable"})`);
}
