/// <reference lib="dom" />
/**
 * @module
 * One run in oha's and autocannon's layouts. Inlined by source text (see dom.ts).
 */
import type { PageRun } from "../page/run.ts";
import { fmtBytes, fmtFixed, fmtNum, fmtPct, h, isNum } from "./dom.ts";

/** Seconds with 4 decimals, as oha prints them. */
export function secs(ms: number): string {
  return isNum(ms) ? `${fmtFixed(ms / 1000, 4)} secs` : "–";
}

/** The oha-style text summary of a run. */
export function ohaText(run: PageRun): string {
  const l = run.latencyMs;
  const lines = [
    "Summary:",
    `  Success rate:\t${fmtPct(run.successRate * 100)}`,
    `  Total:\t${fmtFixed(run.durationSec, 4)} secs`,
    `  Slowest:\t${secs(l.max)}`,
    `  Fastest:\t${secs(l.min)}`,
    `  Average:\t${secs(l.mean)}`,
    `  Requests/sec:\t${fmtFixed(run.rps, 4)}`,
    "",
    `  Total data:\t${fmtBytes(run.bytesRead)}`,
    `  Size/request:\t${fmtBytes(run.requests ? run.bytesRead / run.requests : NaN)}`,
    `  Size/sec:\t${fmtBytes(run.bytesRead / Math.max(run.durationSec, 1e-9))}`,
    "",
    "Response time histogram:",
    ...ohaHistogram(run),
    "",
    "Response time distribution:",
    ...([[10, l.p10], [25, l.p25], [50, l.p50], [75, l.p75], [90, l.p90], [95, l.p95], [99, l.p99], [
      99.9,
      l.p999,
    ], [
      99.99,
      l.p9999,
    ]] as Array<[number, number]>).map(([p, v]) => `  ${p.toFixed(2)}% in ${secs(v)}`),
    "",
    ...(run.connectTimeMs
      ? [
        "Details (average, fastest, slowest):",
        `  DNS+dialup:\t${secs(run.connectTimeMs.mean)}, ${secs(run.connectTimeMs.min)}, ${
          secs(run.connectTimeMs.max)
        }`,
        "",
      ]
      : []),
    "Status code distribution:",
    ...Object.entries(run.statusCodes).sort((a, b) => b[1] - a[1]).map(([c, n]) =>
      `  [${c}] ${fmtFixed(n, 0)} responses`
    ),
  ];
  const errors = Object.entries(run.errorMessages).flatMap(([kind, msgs]) =>
    Object.entries(msgs).map(([msg, n]) => `  [${fmtFixed(n, 0)}] ${kind}: ${msg}`)
  );
  if (errors.length) lines.push("", "Error distribution:", ...errors);
  return lines.join("\n");
}

/** The run's histogram merged into about 11 rows of `latency [count] |■■■`, like oha. */
export function ohaHistogram(run: PageRun): string[] {
  const buckets = run.histogram;
  if (!buckets.length) return ["  (no data)"];
  const per = Math.max(1, Math.ceil(buckets.length / 11));
  const rows: Array<[number, number]> = [];
  for (let i = 0; i < buckets.length; i += per) {
    const group = buckets.slice(i, i + per);
    rows.push([group[group.length - 1][1], group.reduce((a, b) => a + b[2], 0)]);
  }
  const top = Math.max(...rows.map((r) => r[1]), 1);
  const width = Math.max(...rows.map((r) => fmtFixed(r[1], 0).length));
  return rows.map(([upperMs, n]) =>
    `  ${fmtFixed(upperMs / 1000, 3)} [${fmtFixed(n, 0).padEnd(width)}] |${
      "■".repeat(Math.round((n / top) * 32))
    }`
  );
}

/** autocannon's latency table and its req/s and bytes/s tables, as the terminal prints them. */
export function autocannonTables(run: PageRun): HTMLElement {
  const table = ([head, ...rows]: string[][]) =>
    h(
      "div",
      { class: "table-wrap" },
      h(
        "table",
        { class: "data compact" },
        h("thead", null, h("tr", null, ...head.map((c) => h("th", { scope: "col" }, c)))),
        h(
          "tbody",
          null,
          ...rows.map((r) => h("tr", null, ...r.map((c, i) => h("td", { class: i ? "num" : "" }, c)))),
        ),
      ),
    );
  const non2xx = Object.entries(run.statusCodes).filter(([c]) => !/^2/.test(c)).reduce(
    (a, [, n]) => a + n,
    0,
  );
  return h(
    "div",
    null,
    table(run.autocannon.latency),
    table(run.autocannon.throughput),
    h(
      "p",
      { class: "note" },
      `Req/Bytes counts sampled once per second; # of samples: ${run.autocannon.samples}. ` +
        `${fmtNum(run.requests - non2xx)} 2xx responses, ${fmtNum(non2xx)} non 2xx responses. ` +
        `${fmtNum(run.requests)} requests in ${fmtNum(run.durationSec, 2)}s, ${
          fmtBytes(run.bytesRead)
        } read.`,
    ),
  );
}
