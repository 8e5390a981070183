/**
 * @module
 * The terminal's per-endpoint table, pure: the busiest first, names cut to one line, qualifiers beside it.
 */
import { columnsOf, fitColumns, padColumns, visibleLine } from "../../validation/terminal_text.ts";
import type { RunResult } from "../../results/mod.ts";
import { formatCount, formatDurationMs, formatNumber } from "../../results/text_format.ts";
import { percentileSampled } from "../../results/conclude/responses.ts";
import { formatShare } from "../../results/conclude/send_counts.ts";
import { runVerdict } from "../../results/conclude/run_verdict.ts";
import { endpointQualifier, endpointRows } from "../endpoint_rows.ts";

/** The most endpoints the table shows; the rest are counted on a line of their own. */
export const MAX_TERMINAL_ENDPOINTS = 10;
/** The widest line the table draws. */
export const TERMINAL_COLUMNS = 110;
/** The fewest columns a name keeps, whatever width the numbers take. */
const MIN_NAME_COLUMNS = 12;
/** Beside a percentile its endpoint's responses do not reach (`percentileSampled`). */
const FEW = "*";
const HEADER = ["endpoint", "requests", "failures", "p50", "p95", "p99", "max", "req/s"];

interface EndpointTableOptions {
  bold?: (text: string) => string;
  /** Where every endpoint is listed, for the line counting those left out (default report.html). */
  everyOne?: string;
  /** Put before every line, within the `TERMINAL_COLUMNS`. */
  indent?: string;
}

/** A percentile's cell, marked when too few responses reach it. */
function percentileCell(ms: number, responses: number, p: number): string {
  const text = formatDurationMs(ms);
  return Number.isFinite(ms) && !percentileSampled(responses, p) ? text + FEW : text;
}

/** The table's lines (heading first); empty for a run of one endpoint or none. */
export function endpointLines(run: RunResult, opts: EndpointTableOptions = {}): string[] {
  const all = endpointRows(run).map((r) => ({ r, requests: r.requests + r.errors }))
    .sort((a, b) => b.requests - a.requests || (a.r.name < b.r.name ? -1 : 1));
  if (all.length < 2) return [];
  const shown = all.slice(0, MAX_TERMINAL_ENDPOINTS);
  const seconds = run.durationSec > 0 ? run.durationSec : Number.NaN;
  const cells = shown.map(({ r, requests }) => [
    visibleLine(r.name),
    formatCount(requests),
    `${formatCount(r.failed)} (${formatShare(r.failed / requests)})`,
    formatDurationMs(r.p50Ms),
    percentileCell(r.p95Ms, r.requests, 95),
    percentileCell(r.p99Ms, r.requests, 99),
    formatDurationMs(r.maxMs),
    formatNumber(requests / seconds, 1),
  ]);
  const header = [...HEADER];
  // A marked column keeps its numbers in line: the unmarked cells leave the mark's column blank.
  for (const c of [4, 5]) {
    if (!cells.some((row) => row[c].endsWith(FEW))) continue;
    for (const row of [header, ...cells]) if (!row[c].endsWith(FEW)) row[c] += " ";
  }
  const widths = header.map((h, c) => Math.max(columnsOf(h), ...cells.map((row) => columnsOf(row[c]))));
  const numbers = widths.slice(1).reduce((a, w) => a + w + 2, 0);
  const indent = opts.indent ?? "";
  widths[0] = Math.min(widths[0], Math.max(MIN_NAME_COLUMNS, TERMINAL_COLUMNS - indent.length - 2 - numbers));
  const line = (row: string[]) =>
    "  " +
    row.map((cell, c) =>
      c === 0 ? padColumns(fitColumns(cell, widths[0]), widths[0]) : padColumns(cell, widths[c], "start")
    ).join("  ");
  const more = all.length - shown.length;
  const everyOne = opts.everyOne ?? "report.html";
  const few = header[4].endsWith(" ") || header[5].endsWith(" ")
    ? [
      `  ${FEW} too few responses for this percentile (a p95 needs 20, a p99 100): it is the slowest or near it`,
    ]
    : [];
  const pooled = shown.filter(({ r }) => r.pooledRequests > 1).map(({ r }) =>
    `  note: "${fitColumns(visibleLine(r.name), 48)}" names ${r.pooledRequests} different requests: ` +
    "their numbers are pooled"
  );
  const bold = opts.bold ?? ((text: string) => text);
  return [
    ...headingLines(run, TERMINAL_COLUMNS - indent.length).map((text, k) => k === 0 ? bold(text) : text),
    line(header),
    ...cells.map(line),
    ...(more > 0 ? [`  (${formatCount(more)} more endpoint${more === 1 ? "" : "s"}: see ${everyOne})`] : []),
    ...few,
    ...pooled,
  ].map((text) => indent + text);
}

/** "Endpoints (busiest first; ...; verdict: ok):", the verdict on lines of its own when too long. */
function headingLines(run: RunResult, columns: number): string[] {
  const about = "busiest first; latency from the intended send, as the run's";
  const verdict = `verdict: ${visibleLine(runVerdict(run).label)}`;
  const one = `Endpoints (${about}; ${verdict}):`;
  const qualifier = endpointQualifier(run);
  return [
    ...(columnsOf(one) <= columns ? [one] : [`Endpoints (${about}):`, ...wrapped(`run ${verdict}`, columns)]),
    ...(qualifier ? [`  note: ${qualifier}`] : []),
  ];
}

/** `text` indented by two, broken at spaces into lines of at most `columns` (a longer word stays whole). */
function wrapped(text: string, columns: number): string[] {
  const lines: string[] = [];
  let line = " ";
  for (const word of text.split(" ")) {
    if (line.trim() !== "" && columnsOf(`${line} ${word}`) > columns) {
      lines.push(line);
      line = "   ";
    }
    line += ` ${word}`;
  }
  return [...lines, line];
}
