/**
 * @module
 * A locustfile run's numbers as Locust shows them: per request name, requests and failures (runtime.ts's
 * failed checks), Locust's end table, its CSV files, its JSON and its exit code.
 */
import {
  bucketValuesUs,
  createHistogram,
  decodeHistogram,
  forEachBucket,
  type Histogram,
  mergeEncoded,
} from "../../../results/histogram.ts";
import type { ResultsFile, RunResult } from "../../../results/schema/results.ts";
import { unansweredRequests } from "../../../results/conclude/responses.ts";
import {
  BEFORE_RESET,
  CONTENT_BYTES,
  fired,
  REDIRECTED,
  SPELLED,
  statsReset,
  UNREPORTED,
} from "./runtime.ts";
import { statsModule } from "./runtime.ts";

/** loadlab's exit code of a run that got no response (cli/exit_codes.ts `noResponse`). */
const NO_RESPONSE_EXIT = 4;

/** A row's numbers without a request (a name seen only before `--reset-stats`'s reset, or never). */
const ZERO = Object.fromEntries("requests failures avg min max median bytes".split(" ").map((k) => [k, 0]));

/** A row's bytes per request and rates, set once its counts are final. */
const RATES = { avgBytes: 0, rps: 0, failuresPerSec: 0 };

const PERCENTILES = [50, 66, 75, 80, 90, 95, 98, 99, 99.9, 99.99, 100];

/** One row of Locust's statistics, a request name's or the aggregate's; times in ms. */
type LocustRow = ReturnType<typeof locustRows>["rows"][number];

type Endpoint = NonNullable<RunResult["endpoints"]>[number];

/** Locust's rows of a run (sorted by name, as Locust sorts them) and its aggregate. */
function locustRows(run: RunResult) {
  // Locust's `total_rps` (its rates in the table, `_stats.csv` and `--json`): every name's requests over the
  // time from its stats' start (the run's, or the reset's) to the end of the last interval with a request.
  let lastMs = 0;
  for (const e of run.endpoints ?? []) {
    if (e.name.endsWith(BEFORE_RESET)) continue;
    e.intervals.requests.forEach((n, i) => { // a request without an answer (an error) is one of Locust's
      const at = run.intervals?.[i];
      if (n + (e.intervals.errors[i] ?? 0) > 0 && at) lastMs = Math.max(lastMs, at.startMs + at.durationMs);
    });
  }
  for (const f of fired.values()) lastMs = Math.max(lastMs, f.lastMs - Date.parse(run.startedAt));
  const seconds = Math.max(Math.min(lastMs / 1000, run.durationSec) - (statsReset?.afterSec ?? 0), 1e-9);
  const checks = new Map<string, Array<{ name: string; passed: number; failed: number }>>();
  for (const flow of run.flows ?? []) {
    for (const step of flow.steps) {
      checks.set(step.label, [...(checks.get(step.label) ?? []), ...step.checks ?? []]);
    }
  }
  let rows = (run.endpoints ?? []).map((e: Endpoint) => {
    const space = e.name.indexOf(" ");
    // A name of the engine's spelling (`GET /path`), not one a `name=` gave (`HTTP 404`).
    const verb = e.name.slice(0, space);
    const spelled = space > 0 &&
      (verb === e.method || /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)$/.test(verb));
    const errors = new Map<string, number>();
    let requests = e.requests;
    let bytes = 0;
    for (const c of checks.get(e.name) ?? []) {
      if (c.name === CONTENT_BYTES) bytes += c.failed * 2 ** 32 + c.passed;
      else if (c.name === UNREPORTED) requests -= c.passed;
      else if (c.failed > 0) errors.set(c.name, (errors.get(c.name) ?? 0) + c.failed);
      // No response (a timeout, a refused connection): no request of the endpoint's, one of Locust's.
      if (c.name.startsWith("ConnectionError(")) requests += c.failed;
    }
    const failures = [...errors.values()].reduce((a, b) => a + b, 0);
    const h = e.histogramEncoded ? decodeHistogram(e.histogramEncoded) : null;
    const pct = (p: number) => (h === null || e.requests === 0 ? null : h.getValueAtPercentile(p) / 1000);
    return {
      method: e.tags?.[SPELLED] ?? (spelled ? verb : e.method ?? ""),
      name: spelled ? e.name.slice(space + 1) : e.name,
      requests,
      failures,
      avg: e.latencyMs?.mean ?? 0,
      min: e.latencyMs?.min ?? 0,
      max: e.latencyMs?.max ?? 0,
      median: pct(50) ?? 0,
      bytes,
      ...RATES,
      percentile: pct,
      errors,
      endpoint: e as Endpoint | undefined,
      /** A fired row's samples: their times and when each was fired (it has no endpoint's intervals). */
      f: undefined as typeof fired extends Map<string, infer F> ? F | undefined : never,
    };
  });
  // The samples the file fired itself (a client of its own), a row each `request_type name`, as Locust's.
  const own = [...fired.values()].map((f) => {
    const h = createHistogram(), failures = [...f.errors.values()].reduce((a, b) => a + b, 0);
    for (const ms of f.timesMs) h.recordValue(Math.max(1, Math.round(ms * 1000)));
    const requests = f.timesMs.length, percentile = (p: number) => h.getValueAtPercentile(p) / 1000;
    const [min, max, avg] = [h.minNonZeroValue / 1000, h.maxValue / 1000, h.mean / 1000];
    const row = { method: f.type, name: f.name, requests, failures, avg, min, max, h, bytes: f.bytes };
    const endpoint = undefined as Endpoint | undefined;
    return { ...row, ...RATES, errors: f.errors, median: percentile(50), percentile, endpoint, f };
  });
  rows.push(...own);
  // A redirect's hops: their failures are the first request's, their count none (one request, as Locust's).
  for (const hop of rows.filter((r) => r.name.endsWith(REDIRECTED))) {
    const name = hop.name.slice(0, -REDIRECTED.length);
    const first = rows.find((r) => r.name === name && r.method === hop.method) ??
      rows.find((r) => r.name === name);
    if (first === undefined) continue;
    first.failures += hop.failures, first.bytes += hop.bytes;
    for (const [why, n] of hop.errors) first.errors.set(why, (first.errors.get(why) ?? 0) + n);
    rows.splice(rows.indexOf(hop), 1);
  }
  rows = rows.filter((r) => r.requests > 0 || r.failures > 0);
  // `--reset-stats`: what was sent before the reset is left out; a name's row stays, at 0, as Locust's.
  for (const r of rows.filter((r) => r.name.endsWith(BEFORE_RESET))) {
    const name = r.name.slice(0, -BEFORE_RESET.length);
    if (rows.some((o) => o.name === name && o.method === r.method)) rows.splice(rows.indexOf(r), 1);
    else Object.assign(r, ZERO, { name, percentile: () => null, errors: new Map(), endpoint: undefined });
  }
  // The aggregate's times: the run's, or after a reset its rows' (their endpoints' histograms added).
  const ends = statsReset === null ? [run] : run.endpoints?.filter((e) => !e.name.endsWith(BEFORE_RESET));
  const h = mergeEncoded((ends ?? []).flatMap((e: Endpoint | RunResult) => e.histogramEncoded ?? []));
  for (const r of own) h.add(r.h);
  rows.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : a.method < b.method ? -1 : 1);
  const requests = rows.reduce((t, r) => t + r.requests, 0);
  const failures = rows.reduce((t, r) => t + r.failures, 0);
  const total = {
    method: "",
    name: "Aggregated",
    requests,
    failures,
    avg: requests === 0 ? 0 : rows.reduce((t, r) => t + r.avg * r.requests, 0) / requests,
    min: requests === 0 ? 0 : Math.min(...rows.filter((r) => r.requests > 0).map((r) => r.min)),
    max: Math.max(...rows.map((r) => r.max), 0),
    median: statsReset === null && own.length === 0
      ? run.latencyMs?.p50 ?? 0
      : h.getValueAtPercentile(50) / 1000,
    bytes: rows.reduce((t, r) => t + r.bytes, 0),
    ...RATES,
    percentile: (p: number) => requests === 0 || h.totalCount === 0 ? null : h.getValueAtPercentile(p) / 1000,
    errors: new Map<string, number>(),
    endpoint: undefined as Endpoint | undefined,
    f: undefined,
  };
  // Locust's median: its rounded times' (a key of `response_times`), kept within the exact min and max.
  for (const r of [...rows, total]) {
    r.median = Math.min(r.max, Math.max(r.min, rounded(r.median)));
    r.avgBytes = r.requests === 0 ? 0 : r.bytes / r.requests;
    r.rps = r.requests / seconds, r.failuresPerSec = r.failures / seconds;
  }
  return { rows, total };
}

/** A time as Locust keeps it in `response_times`: whole ms below 100, else two significant digits. */
const rounded = (ms: number) => ms < 100 ? Math.round(ms) : +ms.toPrecision(2);

/** Locust's `serialize_stats()` keys of a `StatsEntry`: what `--json` writes of each name's. */
const SERIALIZED =
  ("name method last_request_timestamp start_time num_requests num_none_requests num_failures " +
    "total_response_time max_response_time min_response_time total_content_length response_times " +
    "num_reqs_per_sec num_fail_per_sec").split(" ");

/** Locust's `StatsEntry` of row `r` of `run`; failures by second only when all of the name's failed. */
function statsEntry(run: RunResult, r: LocustRow) {
  const startSec = Date.parse(run.startedAt) / 1000;
  const perSec: Record<number, number> = {}, times: Record<number, number> = {}, sentSec: number[] = [];
  r.endpoint?.intervals.requests.forEach((n, i) => {
    const { startMs, durationMs } = run.intervals![i], at = startSec + startMs / 1000;
    if (n === 0) return;
    perSec[Math.floor(at)] = (perSec[Math.floor(at)] ?? 0) + n;
    sentSec.push(at, at + durationMs / 1000);
  });
  const h = r.endpoint?.histogramEncoded ? decodeHistogram(r.endpoint.histogramEncoded) : null;
  if (h) {
    forEachBucket(h, (slot, n) => {
      const key = rounded(bucketValuesUs(h, slot).medianUs / 1000);
      times[key] = (times[key] ?? 0) + n;
    });
  }
  const [requests, failures] = [r.requests, r.failures], failed = failures > 0 && failures === requests;
  return Object.assign(
    Object.create(null),
    { name: r.name, method: r.method, start_time: sentSec[0] ?? (r.f ? r.f.firstMs / 1000 : startSec) },
    { last_request_timestamp: sentSec.at(-1) ?? (r.f ? r.f.lastMs / 1000 : null), num_requests: requests },
    { num_none_requests: 0 },
    { num_failures: failures, fail_ratio: requests === 0 ? 0 : failures / requests },
    { total_response_time: r.avg * requests, avg_response_time: r.avg, median_response_time: r.median },
    { min_response_time: requests === 0 ? null : r.min, max_response_time: r.max, response_times: times },
    { total_content_length: r.bytes, avg_content_length: r.avgBytes },
    { num_reqs_per_sec: perSec, num_fail_per_sec: failed ? perSec : {}, total_rps: r.rps },
    { current_rps: r.rps, total_fail_per_sec: r.failuresPerSec, current_fail_per_sec: r.failuresPerSec },
    { get_response_time_percentile: (p: number) => r.percentile(p * 100) ?? 0 },
  );
}

/** Locust's `--json` of `run`: its `serialize_stats()`, a dict a name. */
export function locustJson(run: RunResult): string {
  const entries = locustRows(run).rows.map((r) => statsEntry(run, r));
  return JSON.stringify(entries.map((e) => Object.fromEntries(SERIALIZED.map((k) => [k, e[k]]))), null, 4);
}

/** Locust's `environment.stats` of `run` as the end's listeners read it: `total`, `get(name, method)`. */
export function locustStats(run: RunResult): object {
  const { rows, total } = locustRows(run);
  const entry = (r: LocustRow) => statsEntry(run, r);
  return Object.assign(Object.create(null), {
    total: entry(total),
    // By `method name` (Locust's keys are (name, method) tuples): what `entries.values()` iterates.
    entries: Object.fromEntries(rows.map((r) => [`${r.method} ${r.name}`, entry(r)])),
    num_requests: total.requests,
    num_failures: total.failures,
    get: (name: string, method: string) =>
      entry(
        rows.find((r) => r.name === name && r.method === method) ??
          { ...total, ...ZERO, percentile: () => 0 },
      ),
  });
}

const WIDTHS = [8, 40, 7, 12, 7, 7, 7, 7, 7, 11], GAPS = ["", " ", " ", " ", " |", " ", " ", "", " | ", " "];

/** Locust's end-of-run table (its `Type Name # reqs # fails | Avg Min Max Med | req/s failures/s`). */
export function locustTable(run: RunResult): string {
  const { rows, total } = locustRows(run);
  const ms = (v: number) => String(Math.round(v));
  const cells = (c: string[]) =>
    c.map((v, i) => GAPS[i] + (i < 2 ? v.slice(0, 40).padEnd(WIDTHS[i]) : v.padStart(WIDTHS[i]))).join("");
  const line = (r: LocustRow) => {
    const failed = `${r.failures}(${(r.requests === 0 ? 0 : (100 * r.failures) / r.requests).toFixed(2)}%)`;
    const times = [r.avg, r.min, r.max, r.median].map(ms);
    const rates = [r.rps, r.failuresPerSec].map((v) => v.toFixed(2));
    return cells([r.method, r.name, String(r.requests), failed, ...times, ...rates]);
  };
  const separator = [8, 41, 7, 13, 7, 7, 7, 7, 8, 11].map((n) => "-".repeat(n)).join("|");
  const head = cells("Type,Name,# reqs,# fails,Avg,Min,Max,Med,req/s,failures/s".split(","));
  const out = [head, separator, ...rows.map(line), separator, line(total)];
  const errors = rows.flatMap((r) => [...r.errors].map(([why, n]) => ({ r, why, n })));
  if (errors.length > 0) {
    out.push("", "Error report", `${"# occurrences".padEnd(18)} Error`, "-".repeat(60));
    for (const { r, why, n } of errors) out.push(`${String(n).padEnd(18)} ${r.method} ${r.name}: ${why}`);
  }
  const exceptions = run.errors.script ?? 0; // the tasks' exceptions: loadlab's script errors
  if (exceptions > 0) {
    out.push("", `${exceptions} exceptions in tasks (loadlab's script errors; report.html lists each)`);
  }
  return out.join("\n");
}

/** A CSV line as Python's csv module writes it (fields quoted when they hold a comma, quote or newline). */
function csvLine(fields: Array<string | number | null>): string {
  return fields.map((f) => {
    const text = f === null ? "N/A" : String(f);
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  }).join(",") + "\r\n";
}

/** A Python float as its csv module writes it: `13.0`, not `13`. */
const float = (v: number) => Number.isInteger(v) ? v.toFixed(1) : String(v);

const PERCENTILE_NAMES = PERCENTILES.map((p) => `${p}%`);
const TIMES =
  "Median Response Time,Average Response Time,Min Response Time,Max Response Time,Average Content Size";
const columns = (names: string) => names.split(",");

/** Locust's CSV files of `run` at `prefix` (`_stats.csv`, `_failures`, `_stats_history`, `_exceptions`). */
export async function writeLocustCsv(
  prefix: string,
  run: RunResult,
  users: number,
  full = false,
): Promise<void> {
  const { rows, total } = locustRows(run);
  const ints = (r: LocustRow) =>
    PERCENTILES.map((p) => r.percentile(p)).map((p) => p === null ? null : Math.round(p));
  const times = (r: LocustRow) =>
    r.requests === 0
      ? [0, 0, 0, 0, 0, 0, 0]
      : [r.median, ...[r.avg, r.min, r.max, r.avgBytes, r.rps, r.failuresPerSec].map(float)];
  const head = columns(`Type,Name,Request Count,Failure Count,${TIMES},Requests/s,Failures/s`);
  const stats = [
    csvLine([...head, ...PERCENTILE_NAMES]),
    ...[...rows, total].map((r) =>
      csvLine([r.method, r.name, r.requests, r.failures, ...times(r), ...ints(r)])
    ),
  ].join("");
  // Failures are counted by name, not when: first and last seen are the name's first and last second sent.
  const seen = (r: LocustRow) => {
    const sec = statsEntry(run, r);
    return [sec.start_time, sec.last_request_timestamp ?? sec.start_time].map((t: number) =>
      new Date(Math.floor(t) * 1000).toISOString().replace(".000Z", "Z")
    );
  };
  const failures = [
    csvLine(["Method", "Name", "Error", "Occurrences", "First Seen", "Last Seen"]),
    ...rows.flatMap((r) => [...r.errors].map(([why, n]) => csvLine([r.method, r.name, why, n, ...seen(r)]))),
  ].join("");
  const history = [
    csvLine([
      ...columns("Timestamp,User Count,Type,Name,Requests/s,Failures/s"),
      ...PERCENTILE_NAMES,
      ...columns(`Request Count,Failure Count,${TIMES}`).map((c) => `Total ${c}`),
    ]),
    ...historyLines(run, rows, total, users, full),
  ].join("");
  const thrown = Object.entries(run.errorMessages.script ?? {});
  const exceptions = [
    csvLine(["Count", "Message", "Traceback", "Nodes"]),
    // Locust's message is the exception's str(); loadlab's `Type: message (file:line)` gives the line.
    ...thrown.map(([message, count]) => {
      const [, text = message, file, line] = /^[\w.]+: ([\s\S]*?)(?: \(([^()]+):(\d+)\))?$/.exec(message) ??
        [];
      return csvLine([count, text, file === undefined ? "" : `  File "${file}", line ${line}`, "local"]);
    }),
  ].join("");
  const files = { stats, failures, stats_history: history, exceptions };
  for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(`${prefix}_${name}.csv`, text);
}

/** The run's intervals gathered by second (their indices), as Locust writes its history: a row a second. */
function secondsOf(run: RunResult, rows: LocustRow[]) {
  const out: Array<{ startMs: number; endMs: number; connections?: number; indices: number[] }> = [];
  const second = (startMs: number) => {
    if (out.at(-1)?.startMs !== startMs) out.push({ startMs, endMs: startMs + 1000, indices: [] });
    return out.at(-1)!;
  };
  (run.intervals ?? []).forEach((i, k) => {
    const s = Object.assign(second(Math.floor(i.startMs / 1000) * 1000), { connections: i.connections });
    s.endMs = i.startMs + i.durationMs, s.indices.push(k);
  });
  // A fired sample's second, past the engine's last interval (a file that fires alone has none).
  const lastMs = Math.max(
    ...rows.flatMap((r) => r.f ? [Math.max(0, r.f.lastMs - Date.parse(run.startedAt))] : []),
  );
  for (let ms = (out.at(-1)?.startMs ?? -1000) + 1000; ms <= lastMs; ms += 1000) second(ms);
  return out;
}

/** Locust's current rate: the mean of a second's counts over the 10 s that end 2 s before the row's. */
function currentRate(perSecond: readonly number[], j: number): number {
  const from = Math.max(j - 11, 0), n = Math.max(j - 1 - from, 0);
  let sum = 0;
  for (let s = from; s < j - 1; s++) sum += perSecond[s];
  return sum / Math.max(n, 1);
}

/** `total` spread over seconds as `perSecond` is, so far at each: whole, and all of it by the last. */
function spread(total: number, perSecond: readonly number[]): number[] {
  const all = perSecond.reduce((t, n) => t + n, 0);
  let sofar = 0;
  return perSecond.map((n) => (sofar += n, all === 0 ? total : Math.round((total * sofar) / all)));
}

/**
 * Locust's `_stats_history.csv` rows: a second's Aggregated row, each name's before it when `full`. Rates are
 * Locust's current ones; percentiles the run's so far, or with `full` over its last 10 s (0 in a name's first
 * second, as Locust's before its window fills). A name's requests and failures so far are its totals spread
 * as its responses came (its failures are counted by name, not by second: exact for a name that always or
 * never fails).
 */
function historyLines(run: RunResult, rows: LocustRow[], total: LocustRow, users: number, full: boolean) {
  const startSec = Date.parse(run.startedAt) / 1000, seconds = secondsOf(run, rows);
  const each = <T>(pick: (k: number) => T | readonly T[]): T[][] =>
    seconds.map((s) => s.indices.flatMap(pick));
  const all = {
    row: total,
    hists: each((k) => run.intervals[k].histogramEncoded ?? []).map((e) => mergeEncoded(e)),
  };
  const named = rows.map((row) => {
    const per = row.endpoint?.intervals;
    const responses = each((k) => [per?.requests[k] ?? 0]).map((ns) => ns.reduce((t, n) => t + n, 0));
    const hists = each((k) => per?.histograms?.[k] ?? []).map((e) => mergeEncoded(e));
    // A fired sample counts in its second, as Locust's stats listener counts it when fired.
    row.f?.atMs.forEach((at, i) => {
      const j = Math.max(0, seconds.findLastIndex((s) => s.startMs <= at - startSec * 1000));
      const us = row.f!.timesMs[i] * 1000;
      responses[j]++, [hists[j], all.hists[j]].forEach((h) => h.recordValue(Math.max(1, Math.round(us))));
    });
    return { row, sent: spread(row.requests, responses), failed: spread(row.failures, responses), hists };
  });
  const sum = (pick: (n: typeof named[number]) => number[]) =>
    seconds.map((_, j) => named.reduce((t, n) => t + pick(n)[j], 0));
  const totals = { ...all, sent: sum((n) => n.sent), failed: sum((n) => n.failed) };
  const cells = [...full ? named : [], totals].map((series) => {
    const { row, sent, failed, hists } = series;
    const perSecond = (sofar: number[]) => sofar.map((n, j) => n - (sofar[j - 1] ?? 0));
    const [requests, failures] = [perSecond(sent), perSecond(failed)];
    const sofar = createHistogram(), window = createHistogram(), seen: Histogram[] = [];
    let first = series === totals ? 0 : -1;
    return seconds.map((_, j) => {
      const h = hists[j];
      sofar.add(h), window.add(h), seen.push(h);
      if (seen.length > 9) window.subtract(seen.shift()!);
      if (first < 0 && (sent[j] > 0 || failed[j] > 0)) first = j;
      if (first < 0) return null;
      const from = full ? (j > first ? window : null) : sofar;
      const ms = (p: number) => Math.round((from?.getValueAtPercentile(p) ?? 0) / 1000);
      const none = sent[j] === 0 || sofar.totalCount === 0;
      return [
        row.method,
        row.name,
        currentRate(requests, j).toFixed(6),
        currentRate(failures, j).toFixed(6),
        ...PERCENTILES.map((p) => (none ? null : from === null || from.totalCount === 0 ? 0 : ms(p))),
        sent[j],
        failed[j],
        // Locust's median: rounded, kept within the exact min and max (a fired 10.2 ms alone reads 10.2).
        none ? 0 : Math.min(
          sofar.maxValue,
          Math.max(sofar.minNonZeroValue, rounded(sofar.getValueAtPercentile(50) / 1000) * 1000),
        ) / 1000,
        ...(none
          ? [0, 0, 0, 0]
          : [sofar.mean / 1e3, sofar.minNonZeroValue / 1e3, sofar.maxValue / 1e3, row.avgBytes]
            .map(float)),
      ];
    });
  });
  // Locust's first row is written as it starts, before any user: none of them, no request.
  const zeros = [0, 0, 0, "0.0"];
  const before = [0, "", "Aggregated", "0.000000", "0.000000", ...PERCENTILES.map(() => null), ...zeros];
  // A row every CSV_STATS_INTERVAL_SEC a file sets (`locust.stats`), as Locust's writer sleeps between them.
  const every = Math.max(1, Math.round(statsModule.CSV_STATS_INTERVAL_SEC));
  return [csvLine([Math.round(startSec), ...before, 0, 0, 0])].concat(
    seconds.flatMap((s, j) =>
      cells.flatMap((c) =>
        c[j] === null || (j + 1) % every !== 0
          ? []
          : [csvLine([Math.round(startSec + s.endMs / 1000), s.connections ?? users, ...c[j]!])]
      )
    ),
  );
}

/** The exit code of a locustfile's run as Locust's: `onError` when any request failed or task raised. */
export function locustExitCode(results: ResultsFile, code: number, onError = 1): number {
  // A listener's exit code wins (`process_exit_code`); loadlab's "no response at all" (4) is failed requests.
  if (code !== 0 && code !== NO_RESPONSE_EXIT) return code;
  const failed = results.runs.some((run) =>
    // Requests that got no response (connect, timeout, reset, ...) are Locust's failures too.
    locustRows(run).total.failures > 0 || (run.errors.script ?? 0) > 0 || unansweredRequests(run) > 0
  );
  return failed ? onError : 0;
}
