/**
 * @module
 * The end of a k6 script's run: k6's summary handed to its `handleSummary(data)`, or printed as k6 does.
 */
import { basename, dirname, resolve } from "node:path";
import { importsK6Module, sessionScriptPath } from "../../runner/script/k6/convert/converted_file.ts";
import {
  afterRunSubmetric,
  k6RuleHolds,
  k6ScenarioParts,
  k6SummaryData,
} from "../../results/export/k6/summary.ts";
import { k6Experiment } from "../../scenarios/k6/options.ts";
import { k6RunSec } from "../../results/thresholds/threshold.ts";
import { k6CustomMetrics, percentileStats } from "../../runner/script/k6/metrics_channel.ts";
import {
  askedStats,
  counterMetric,
  type K6Metric,
  type K6SummaryData,
  k6SummaryExport,
  rateMetric,
  textSummary,
} from "../../results/export/k6/summary_text.ts";
import {
  type K6ScenarioPart,
  type K6SummaryMode,
  renderK6SummaryV1,
} from "../../results/export/k6/summary_v1.ts";
import type { ResultsFile } from "../../results/mod.ts";
import { errorText } from "../../runner/script/module.ts";
import { k6ErrorOf } from "../../runner/script/k6/errors/error_codes.ts";
import { OutputError, sameFile, writeTextAtomic } from "../../system/output_file.ts";
import { withTimeout } from "../../system/sleep.ts";
import { ScriptNames } from "../../runner/script/sessions/names.ts";
import { busyText, type HostOutcome, type ScriptExports, ScriptHost } from "../../runner/script/host/host.ts";
import { memoryLimitMbBesideRuns, memoryPassedText } from "../../runner/worker/memory_limit.ts";
import { setupReturns } from "../../runner/script/host/hooks.ts";
import { type K6Flags, withK6Flags } from "../run/script_load_flags.ts";

/** Each run's k6 summary data with its thresholds judged, and the script's `handleSummary` if any. */
export interface K6Summaries {
  /** Each run's summary data, and its scenarios' parts (`--summary-mode full`). */
  runs: { run: string; data: K6SummaryData; scenarios?: Record<string, K6ScenarioPart> }[];
  /** Thresholds judged here that failed. */
  failed: number;
  handle: ((data: unknown) => unknown) | undefined;
}

/** The k6 summary of every run, with the workers' custom metrics and thresholds judged after the run. */
export async function k6Summaries(
  source: string,
  results: ResultsFile,
  memoryLimitMb = memoryLimitMbBesideRuns(),
  k6Flags?: K6Flags,
): Promise<K6Summaries> {
  // As its check read them, else in an isolate of its own (its top level's built-ins stay its own).
  const path = sessionScriptPath(resolve(source));
  const exports = ScriptHost.importedBefore(path, memoryLimitMb) ??
    await readExports(path, source, memoryLimitMb);
  const options = withK6Flags(exports.options ?? {}, k6Flags);
  const mapped = k6Experiment(options, exports.metrics, importsK6Module(source, "k6/net/grpc"));
  const rules = mapped.ok ? mapped.value.afterRun : [];
  const trendStats = Array.isArray(options.summaryTrendStats)
    ? options.summaryTrendStats.map(String)
    : undefined;
  const timeUnit = typeof options.summaryTimeUnit === "string" ? options.summaryTimeUnit : "";
  const stats = [...rules.map((r) => r.rule), ...(trendStats ?? [])];
  const idleVus = mapped.ok ? mapped.value.idleVus : 0;
  const asked = { trendStats, timeUnit, idleVus, percentiles: percentileStats(rules.map((r) => r.rule)) };
  const custom = await k6CustomMetrics(
    results.runs.reduce((a, r) => a + k6RunSec(r), 0),
    percentileStats(stats),
  );
  let failed = 0;
  // A script calling gRPC only: its requests are k6's gRPC calls, timed as grpc_req_duration, no HTTP's.
  const grpc = importsK6Module(source, "k6/net/grpc") && !importsK6Module(source, "k6/http");
  const runs = results.runs.map((run) => {
    const data = { ...k6SummaryData(results, run, asked), setup_data: setupReturns.get(path) };
    for (const name of grpc ? Object.keys(data.metrics) : []) {
      const grpcName = /^http_req_duration(?!.*expected_response)/.test(name) && name.replace("http", "grpc");
      if (grpcName) data.metrics[grpcName] = data.metrics[name];
      if (name.startsWith("http_req")) delete data.metrics[name];
    }
    // A script's metric named as a built-in adds to it, as k6's: a gauge keeps the run's last value past 1 s.
    for (const [name, m] of Object.entries(custom)) {
      const own = data.metrics[name], v = own?.values, w = m.values;
      data.metrics[name] =
        own?.type !== m.type || m.type === "trend" || (m.type === "gauge" && k6RunSec(run) < 1)
          ? m
          : m.type === "rate"
          ? rateMetric(v.passes + w.passes, v.fails + w.fails)
          : m.type === "gauge"
          ? { ...own, values: { value: v.value, min: Math.min(v.min, w.min), max: Math.max(v.max, w.max) } }
          : counterMetric(v.count + w.count, k6RunSec(run));
    }
    for (const { metric, rule, as } of rules) {
      // Own metrics only, so a rule on `constructor` or `toString` never judges Object's.
      if (!Object.hasOwn(data.metrics, metric)) {
        const judged = [...data.options.summaryTrendStats, ...asked.percentiles];
        const same = as && Object.hasOwn(data.metrics, as)
          ? { ...data.metrics[as], thresholds: undefined }
          : null;
        data.metrics[metric] = same ??
          (as === undefined || as.includes("{")
            ? afterRunSubmetric(run, as ?? metric, judged, k6ErrorOf)
            : null) ??
          emptyMetric(rule, exports.metrics?.[metric.split("{", 1)[0]]);
      }
      const values = data.metrics[metric].values;
      // The rule that stopped the run (abortOnFail) failed, whatever the numbers after it say.
      const stopped = run.abortedBy?.threshold === `${metric}: ${rule}`;
      // As k6 v1.8.1: a rate with no samples holds every rule (an empty counter or trend is judged at 0).
      const empty = data.metrics[metric].type === "rate" && values.passes + values.fails === 0;
      const ok = !stopped && (empty || k6RuleHolds(values, rule));
      (data.metrics[metric].thresholds ??= {})[rule] = { ok };
      if (!ok) failed++;
    }
    // As k6's: a built-in no sample reached is left out, unless a threshold names it.
    const sec = k6RunSec(run);
    for (const [name, m] of Object.entries(data.metrics)) {
      if (!m.thresholds && unsampled(name, m, data.metrics, sec)) delete data.metrics[name];
    }
    return { run: run.name, data, scenarios: k6ScenarioParts(run, data.options.summaryTrendStats) };
  });
  const handle = exports.summary
    ? isolatedHandleSummary(path, HANDLE_SUMMARY_TIMEOUT_MS, memoryLimitMb)
    : undefined;
  return { runs, failed, handle };
}

async function readExports(path: string, source: string, memoryLimitMb: number): Promise<ScriptExports> {
  const opened = await ScriptHost.open(path, HANDLE_SUMMARY_TIMEOUT_MS, memoryLimitMb);
  if (opened.host !== null) return opened.host.close(), opened.exports;
  const why = outcomeText(opened.outcome);
  const told = `${basename(source)}: its exports could not be read again after the run: ${why}`;
  throw new OutputError(`${told}; the run's results are kept`);
}

/** Runs `handleSummary(data)` in an isolate of its own, ended past `timeoutMs` or `memoryLimitMb`. */
export function isolatedHandleSummary(
  path: string,
  timeoutMs = HANDLE_SUMMARY_TIMEOUT_MS,
  memoryLimitMb = memoryLimitMbBesideRuns(),
): (data: unknown) => Promise<unknown> {
  return async (data) => {
    const opened = await ScriptHost.open(path, timeoutMs, memoryLimitMb);
    if (opened.host === null) throw new Error(outcomeText(opened.outcome));
    try {
      const outcome = await opened.host.call({ type: "summary", data }, timeoutMs);
      if (outcome.kind === "done") return outcome.value;
      throw new (outcome.kind === "failed" ? HandleSummaryThrew : Error)(outcomeText(outcome));
    } finally {
      opened.host.close();
    }
  };
}

/** handleSummary threw: k6 logs it and shows its own summary, the run's verdict unchanged. */
class HandleSummaryThrew extends Error {}

/** Why a step in the script's isolate gave no answer, in handleSummary's words. */
function outcomeText(outcome: HostOutcome): string {
  if (outcome.kind === "failed") return outcome.message;
  const never = "a loop that never yields, or a promise that never settles?";
  if (outcome.kind === "timeout") return `it did not end within ${outcome.timeoutMs / 1000} s (${never})`;
  if (outcome.kind === "memory") return `it ${memoryPassedText(outcome.limitMb)}`;
  if (outcome.kind === "busy") return busyText(outcome.busyMs);
  if (outcome.kind === "exited") return "it ended its isolate (Deno.exit or process.exit) before it answered";
  return "it was stopped before it answered";
}

/** How long an asynchronous `handleSummary` may take, as k6 bounds it (2 minutes). */
export const HANDLE_SUMMARY_TIMEOUT_MS = 120_000;

/**
 * The end of a k6 script's run as k6's: a throwing setup() said, each run's summary shown (or what
 * `handleSummary` returns written, never over `ownFiles`), crossed thresholds named, `--summary-export`.
 */
export async function endK6Run(
  k6: K6Summaries,
  results: ResultsFile,
  ownFiles: string[],
  flags: K6Flags = {},
  mode?: K6SummaryMode,
): Promise<void> {
  for (const r of results.runs) if (r.setupError) console.error(`loadlab run: ${r.setupError}`);
  const shown = !flags.noSummary && await showK6Summaries(k6, ownFiles, HANDLE_SUMMARY_TIMEOUT_MS, mode);
  const crossed = new Set(
    k6.runs.flatMap((r) => Object.entries(r.data.metrics))
      .filter(([, m]) => Object.values(m.thresholds ?? {}).some((t) => !t.ok)).map(([name]) => name),
  );
  if (crossed.size > 0) {
    console.error(`loadlab run: thresholds on metrics '${[...crossed].sort().join(", ")}' have been crossed`);
  }
  const last = k6.runs.at(-1), path = flags.summaryExport;
  if (path === undefined || !shown || last === undefined) return;
  await writeTextAtomic(path, k6SummaryExport(last.data) + "\n").catch((err) => {
    throw new OutputError(`--summary-export ${path}: cannot write: ${errorText(err)}`, { cause: err });
  });
}

/** k6's `--summary-mode legacy` text: the library's summary, rates as "3 out of 4", between blank lines. */
const legacyText = (data: K6SummaryData) =>
  `\n${textSummary(data, { enableColors: !data.options.noColor && data.state.isStdOutTTY }, "out of")}\n`;

/** Prints each run's k6 summary, or writes handleSummary's answer but over `ownFiles`; false: nothing is. */
export async function showK6Summaries(
  { runs, handle }: K6Summaries,
  ownFiles: string[] = [],
  timeoutMs = HANDLE_SUMMARY_TIMEOUT_MS,
  mode: K6SummaryMode = "compact",
): Promise<boolean> {
  for (const { data, scenarios } of runs) {
    const own = () =>
      console.log(mode === "legacy" ? legacyText(data) : renderK6SummaryV1(data, mode, scenarios));
    if (handle === undefined) {
      own();
      continue;
    }
    let written: unknown;
    try {
      const handled = Promise.resolve().then(() => handle(askedStats(data)));
      written = await withTimeout(handled, timeoutMs, outcomeText({ kind: "timeout", timeoutMs }));
    } catch (err) {
      const threw = err instanceof HandleSummaryThrew;
      const told = new ScriptNames().shownPlaced(
        `handleSummary() failed: ${errorText(err)}`,
        threw ? "; k6's own summary follows" : "; the run's results are kept",
      );
      // After the run, so not bad input (exit 2): what the run measured is written.
      if (!threw) throw new OutputError(told, { cause: err });
      console.error(`loadlab run: ${told}`);
      own();
      continue;
    }
    // As k6: an answer with a value of another type than text or bytes is written nowhere.
    if (written instanceof Error) {
      console.error(`loadlab run: failed to handle the end-of-test summary: ${written.message}`);
      return false;
    }
    await writeSummaryOutputs(written, ownFiles);
  }
  return true;
}

/** Whether k6 holds no sample of built-in `name`: no request, check or iteration, VUs sampled from 1 s. */
function unsampled(name: string, m: K6Metric, metrics: Record<string, K6Metric>, sec: number): boolean {
  if (m.type === "rate") return m.values.passes + m.values.fails === 0;
  if (name === "vus" || name === "vus_max") return sec < 1;
  // Each iteration's end sends its bytes, none or some.
  if (name === "data_sent" || name === "data_received") return !metrics.iterations?.values.count;
  return (name === "http_reqs" || name === "iterations") && m.values.count === 0;
}

/** A metric no sample reached, as k6 judges its thresholds: an empty sink, every value 0. */
function emptyMetric(rule: string, made?: { kind: K6Metric["type"]; time: boolean }): K6Metric {
  const stat = /^\s*([a-z]+(?:\([\d.]+\))?)/.exec(rule)?.[1] ?? "";
  const kind = made?.kind ??
    (stat === "count" ? "counter" : stat === "rate" ? "rate" : stat === "value" ? "gauge" : "trend");
  if (kind === "counter") return counterMetric(0, 0);
  if (kind === "rate") return rateMetric(0, 0);
  if (kind === "gauge") return { type: kind, contains: "default", values: { value: 0, min: 0, max: 0 } };
  const values: Record<string, number> = { avg: 0, min: 0, med: 0, max: 0, "p(90)": 0, "p(95)": 0 };
  if (stat.startsWith("p(")) values[stat] = 0;
  return { type: "trend", contains: made?.time ? "time" : "default", values };
}

/** Keys naming loadlab's own streams: written to, never opened as a path (that truncates a file). */
const STREAMS: Readonly<Record<string, "stdout" | "stderr">> = Object.assign(
  Object.create(null),
  ...(["stdout", "stderr"] as const).map((s, k) =>
    Object.fromEntries([s, `/dev/${s}`, `/dev/fd/${k + 1}`, `/proc/self/fd/${k + 1}`].map((key) => [key, s]))
  ),
);

/** handleSummary's answer: `{ stdout: text, stderr: text, "path/file.json": text or bytes }`. */
async function writeSummaryOutputs(outputs: unknown, ownFiles: string[]): Promise<void> {
  if (outputs === undefined || outputs === null) return;
  if (typeof outputs !== "object" || Array.isArray(outputs)) {
    throw new OutputError(
      `handleSummary() returned ${typeof outputs}: it returns an object of "stdout", "stderr" or a file path: text`,
    );
  }
  const failed: string[] = [];
  // Text or bytes, each (its isolate made them so: runner/script/host/hooks_worker.ts).
  for (const [key, content] of Object.entries(outputs as Record<string, string | Uint8Array>)) {
    const stream = STREAMS[key];
    if (stream !== undefined) {
      const text = typeof content === "string" ? content : new TextDecoder().decode(content);
      (stream === "stdout" ? console.log : console.error)(text);
      continue;
    }
    const own = ownFiles.find((file) => resolve(file) === resolve(key) || sameFile(file, key));
    if (own !== undefined) {
      failed.push(
        `${JSON.stringify(key)} (loadlab wrote the run's ${basename(own)} there: name it otherwise)`,
      );
      continue;
    }
    try {
      if (key.trim() === "") throw new Error("an empty file name");
      await Deno.mkdir(dirname(resolve(key)), { recursive: true });
      if (typeof content === "string") await Deno.writeTextFile(key, content);
      else await Deno.writeFile(key, content);
    } catch (err) {
      failed.push(`${JSON.stringify(key)} (${errorText(err)})`);
    }
  }
  if (failed.length > 0) {
    throw new OutputError(`handleSummary(): cannot write ${failed.join(", ")}; the run's results are kept`);
  }
}
