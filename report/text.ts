/**
 * @module
 * The terminal printer: a `RunResult` in, text out, nothing else (no `Deno.*`, no clock). The summary
 * follows oha (success rate, totals, a ■ histogram, the latency distribution, status codes and errors)
 * and then autocannon's box tables, because those are the two layouts people doing this kind of test
 * already read fluently. Late and dropped sends are printed next to the latency they distort, under a
 * one-line verdict on who limited the run (report/generator_verdict.ts, the page's words) and with a
 * warning when the generator, not the target, limited it. The run verdict
 * (results/conclude/run_verdict.ts) is the first line, and an open-model run shows its requested rate, sends made and dropped beside the achieved
 * rate, so "success 100%" never stands alone beside dropped sends. A run without a response prints "-"
 * for every latency statistic (it has no samples), never "0 ms" and never NaN.
 */

import { terminalSafe } from "../validation/terminal_text.ts";
import type { AttackProgress, RunResult } from "../results/mod.ts";
import type { LatencyKey } from "../results/schema_values.ts";
import {
  formatBytes,
  formatCount,
  formatDurationMs,
  formatNumber,
  formatPercent,
  formatPercentile,
  protocolTag,
} from "../results/text_format.ts";
import { latencyTable, throughputTable } from "./text_tables.ts";
import { wsLines } from "./ws_text.ts";
import { endpointLines } from "./endpoint_text.ts";
import { generatorVerdict, HOST_TCP_LABEL, hostTcpLine, hostTcpTroubled } from "./generator_verdict.ts";
import { type RunVerdict, runVerdict } from "../results/conclude/run_verdict.ts";
import { achievedAbove, droppedShare, formatShare, sendFacts } from "../results/conclude/send_counts.ts";
import { latencySampled, measuredSuccessRate, sampledLatency } from "../results/conclude/responses.ts";
import { drainedNote, unfinishedNote } from "../results/conclude/served_rate.ts";

/** Options of `renderSummary`. */
export interface SummaryOptions {
  /** ANSI colors (bold headings, red errors, yellow warnings); off by default for files and pipes. */
  color?: boolean;
}

const BAR_COLUMNS = 30;
const TOP_MESSAGES = 3;
const DISTRIBUTION: Array<[number, LatencyKey]> = [
  [10, "p10"],
  [25, "p25"],
  [50, "p50"],
  [75, "p75"],
  [90, "p90"],
  [95, "p95"],
  [99, "p99"],
  [99.9, "p999"],
  [99.99, "p9999"],
];

type Paint = (text: string) => string;
interface Palette {
  bold: Paint;
  red: Paint;
  yellow: Paint;
  green: Paint;
}

function palette(color: boolean): Palette {
  const ansi = (code: number): Paint => (text) => color ? `\x1b[${code}m${text}\x1b[0m` : text;
  return { bold: ansi(1), red: ansi(31), yellow: ansi(33), green: ansi(32) };
}

/** Aligned "label: value" lines. */
function fields(pairs: Array<[string, string]>): string[] {
  const width = Math.max(...pairs.map(([label]) => label.length)) + 1;
  return pairs.map(([label, value]) => `  ${(label + ":").padEnd(width)}  ${value}`);
}

/** " of sent, 12% of intended sends dropped": a success rate never stands alone beside dropped sends. */
function successQualifier(run: RunResult): string {
  if (run.droppedSends === 0) return "";
  return ` of sent; ${formatShare(droppedShare(run))} of intended sends dropped`;
}

function overview(run: RunResult, c: Palette): string[] {
  const safe = (n: number, d: number) => (d > 0 ? n / d : 0);
  const rate = formatPercent(measuredSuccessRate(run)); // "-" when nothing was measured
  const successColor = run.successRate >= 0.99 ? c.green : run.successRate >= 0.9 ? c.yellow : c.red;
  const sends = sendFacts(run);
  const drained = drainedNote(run);
  const requestsLine =
    (sends.requestedRps === null
      ? formatNumber(run.rps, 2)
      : `${formatNumber(run.rps, 2)} achieved of ${formatNumber(sends.requestedRps, 2)} requested` +
        (achievedAbove(run) ? " (above requested beyond noise)" : "")) + (drained ? ` (${drained})` : "");
  const verdict = runVerdict(run);
  const latency = sampledLatency(run);
  const unfinished = unfinishedNote(run);
  const unfinishedRows: Array<[string, string]> = unfinished
    ? [["Unfinished", `${unfinished}: cut by the run's own stop, not failures of the target`]]
    : [];
  const sendRows: Array<[string, string]> = sends.requestedRps === null ? [] : [[
    "Sent",
    `${formatCount(sends.sent)}, dropped ${formatCount(sends.dropped)} (${formatShare(sends.droppedShare)} ` +
    "of intended sends)",
  ]];
  return [
    `${c.bold("Verdict:")} ${verdictText(verdict, c)}`,
    c.bold("Summary:"),
    ...fields([
      ["Success rate", (sends.sent === 0 ? rate : successColor(rate)) + successQualifier(run)],
      ["Total", formatDurationMs(run.durationSec * 1000)],
      ["Slowest", formatDurationMs(latency.max)],
      ["Fastest", formatDurationMs(latency.min)],
      ["Average", formatDurationMs(latency.mean)],
      ["Requests/sec", requestsLine],
      ["Requests", formatCount(run.requests)],
      ...sendRows,
      ...unfinishedRows,
    ]),
    "",
    ...fields([
      ["Total data", formatBytes(run.bytesRead)],
      [
        "Size/request",
        latencySampled(run) ? formatBytes(Math.round(safe(run.bytesRead, run.requests))) : "-",
      ],
      ["Size/sec", formatBytes(Math.round(safe(run.bytesRead, run.durationSec)))],
    ]),
  ];
}

function histogramLines(run: RunResult, c: Palette): string[] {
  if (run.histogram.length === 0) return [c.bold("Response time histogram:"), "  (no responses)"];
  const maxCount = Math.max(...run.histogram.map((b) => b.count));
  const labels = run.histogram.map((b) => formatDurationMs(b.toMs));
  const counts = run.histogram.map((b) => `[${formatCount(b.count)}]`);
  const labelWidth = Math.max(...labels.map((l) => l.length));
  const countWidth = Math.max(...counts.map((l) => l.length));
  return [
    c.bold("Response time histogram:"),
    ...run.histogram.map((b, i) => {
      const bar = "■".repeat(maxCount > 0 ? Math.round((b.count / maxCount) * BAR_COLUMNS) : 0);
      return `  ${labels[i].padStart(labelWidth)} ${counts[i].padEnd(countWidth)} |${bar}`;
    }),
  ];
}

function distributionLines(run: RunResult, c: Palette): string[] {
  const uncorrected = run.uncorrectedLatencyMs;
  const header = uncorrected === null
    ? "Response time distribution:"
    : "Response time distribution (corrected | uncorrected):";
  if (!latencySampled(run)) return [c.bold(header), "  (no responses)"];
  return [
    c.bold(header),
    ...DISTRIBUTION.map(([p, key]) => {
      const label = formatPercentile(p).padStart(7);
      const corrected = formatDurationMs(run.latencyMs[key]);
      if (uncorrected === null) return `  ${label} in ${corrected}`;
      return `  ${label} in ${corrected.padEnd(10)} | ${formatDurationMs(uncorrected[key])}`;
    }),
  ];
}

function statusLines(run: RunResult, c: Palette): string[] {
  const entries = Object.entries(run.statusCodes).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (entries.length === 0) return [];
  return [
    c.bold("Status code distribution:"),
    ...entries.map(([code, count]) => {
      const line = `  [${code}] ${formatCount(count)} responses`;
      const ok = Number(code) >= 200 && Number(code) < 400;
      return ok ? line : c.yellow(line);
    }),
  ];
}

function errorLines(run: RunResult, c: Palette): string[] {
  const kinds = Object.entries(run.errors).filter(([, n]) => (n ?? 0) > 0).sort((a, b) =>
    (b[1] ?? 0) - (a[1] ?? 0)
  );
  if (kinds.length === 0) return [];
  const out = [c.bold("Error distribution:")];
  for (const [kind, count] of kinds) {
    out.push(c.red(`  [${formatCount(count ?? 0)}] ${kind}`));
    const messages = Object.entries(run.errorMessages[kind] ?? {}).sort((a, b) => b[1] - a[1]);
    for (const [message, n] of messages.slice(0, TOP_MESSAGES)) {
      out.push(`      ${formatCount(n)} × ${terminalSafe(message)}`);
    }
    if (messages.length > TOP_MESSAGES) out.push(`      … ${messages.length - TOP_MESSAGES} more messages`);
  }
  return out;
}

/**
 * Checks of flow steps (k6's checks), one line each with its pass rate and its passed and failed
 * counts, and the sessions a capture ended; empty when no step checks or captures. `attack`'s summary
 * and `run`'s line per run (cli/run_progress.ts) print it.
 */
export function renderChecks(run: RunResult, opts: SummaryOptions = {}): string[] {
  return checkLines(run, palette(opts.color ?? false));
}

function checkLines(run: RunResult, c: Palette): string[] {
  const out: string[] = [];
  for (const f of run.flows ?? []) {
    if (f.captureFailed) {
      out.push(
        c.red(
          `  [${formatCount(f.captureFailed)}] ${f.name}: sessions ended by a capture that found nothing`,
        ),
      );
    }
    if (f.noData) {
      out.push(c.yellow(`  [${formatCount(f.noData)}] ${f.name}: arrivals found no data row left (not run)`));
    }
    for (const s of f.steps) {
      for (const check of s.checks ?? []) {
        const total = check.passed + check.failed;
        const rate = total === 0
          ? "no responses"
          : `${((100 * check.passed) / total).toFixed(1)}% of ${formatCount(total)} passed ` +
            `(✓ ${formatCount(check.passed)} / ✗ ${formatCount(check.failed)})`;
        const line = `  ${f.name} / ${terminalSafe(s.label)}: ${terminalSafe(check.name)}: ${rate}`;
        out.push(check.failed > 0 ? c.red(line) : line);
      }
    }
  }
  return out.length === 0 ? [] : [c.bold("Checks:"), ...out];
}

/**
 * The verdict line (report/generator_verdict.ts, the same words as the page), the late, waiting and
 * dropped counts, the start-up facts, and a warning with what to do when the run was bound.
 */
function generatorLines(run: RunResult, c: Palette): string[] {
  const v = generatorVerdict(run);
  if (v === null) return [];
  const bound = v.kind === "generator-bound" || v.kind === "server-bound";
  const out = [`${c.bold("Generator:")} ${bound ? c.yellow(v.sentence) : v.sentence}`];
  if (v.kind !== "closed") {
    out.push(
      `  Late sends: ${formatCount(run.lateSends)}, waited for a connection: ` +
        `${formatCount(run.serverBoundSends ?? 0)}, dropped sends: ${formatCount(run.droppedSends)}`,
    );
  }
  const startUp = startUpLine(run);
  if (startUp) out.push(`  Start-up: ${startUp}`);
  if (run.dataRanOutWorkers) {
    out.push(c.yellow(
      `  Data: rows ran out in ${formatCount(run.dataRanOutWorkers)} worker(s), which stopped sending ` +
        "there (whenDone: stop / order: unique): the run sent less than its load asked for.",
    ));
  }
  if (hostTcpTroubled(run)) {
    out.push(c.yellow(`  ${HOST_TCP_LABEL[0].toUpperCase()}${HOST_TCP_LABEL.slice(1)}: ${hostTcpLine(run)}`));
  }
  if (run.generatorBound) {
    out.push(c.yellow(
      "WARNING: more than 1% of sends were late: the load generator, not the target, limited " +
        "this run. Lower the rate, add workers, or use a bigger machine.",
    ));
  } else if (run.serverBound) {
    out.push(c.yellow(
      "Server-bound: the target held every connection (at --max-connections, or connects slow): " +
        "the target, not the generator, limited this run.",
    ));
  }
  return out;
}

/** Pool, connects in flight, warm-up and transport on one line; empty when the file has none of them. */
function startUpLine(run: RunResult): string {
  const parts: string[] = [];
  if (run.preConnected !== undefined) parts.push(`${formatCount(run.preConnected)} pre-connected`);
  if (run.maxConnectsInFlight !== undefined) {
    parts.push(`at most ${formatCount(run.maxConnectsInFlight)} connects in flight`);
  }
  if (run.generatorWarmupMs !== undefined) {
    parts.push(
      run.generatorWarmupMs > 0
        ? `generator warm-up ${formatDurationMs(run.generatorWarmupMs)}`
        : "no warm-up",
    );
  }
  if (run.transport !== undefined) parts.push(`transport ${run.transport}`);
  if (protocolTag(run) !== "") {
    parts.push(`protocol ${protocolTag(run)} (at most ${run.maxStreamsPerConnection ?? "?"} open at once)`);
  }
  if (run.tlsMs) {
    const insecure = run.tls?.insecure ? ", certificates NOT verified (--insecure)" : "";
    parts.push(
      `TLS handshake mean ${formatDurationMs(run.tlsMs.mean)} p99 ${formatDurationMs(run.tlsMs.p99)}` +
        ` (${run.tls?.client ?? "?"} client${insecure})`,
    );
    const tls = run.tls;
    if (tls?.handshakes != null) parts.push(`${tls.resumed ?? 0} of ${tls.handshakes} handshakes resumed`);
    if (tls?.resumeNote) parts.push(tls.resumeNote);
  }
  return parts.join(", ");
}

/** A shard's numbers are its part of the load only: say so, and how to get the whole. */
function segmentLines(run: RunResult, c: Palette): string[] {
  const segment = run.segment;
  if (!segment) return [];
  const late = segment.lateMs ? `, started ${segment.lateMs} ms after ${segment.startAt}` : "";
  return [
    c.yellow(
      `Segment ${segment.index}/${segment.count} of a split load${late}: these numbers are this shard's part; ` +
        "loadlab merge the shards for the whole (docs/scale-out.md)",
    ),
  ];
}

/**
 * The verdict in its colour: green `ok`, red when no request got any response (`failed`), else yellow
 * (the numbers are there, qualified).
 */
function verdictText(verdict: RunVerdict, c: Palette): string {
  if (verdict.ok) return c.green("ok");
  return verdict.flags.some((f) => f.kind === "failed") ? c.red(verdict.label) : c.yellow(verdict.label);
}

/** The full end-of-run text for one run (no trailing newline). */
export function renderSummary(run: RunResult, opts: SummaryOptions = {}): string {
  const c = palette(opts.color ?? false);
  const sections = [
    overview(run, c),
    histogramLines(run, c),
    distributionLines(run, c),
    statusLines(run, c),
    wsLines(run, c.bold),
    errorLines(run, c),
    endpointLines(run, c.bold),
    checkLines(run, c),
    generatorLines(run, c),
    [latencyTable(run)],
    [throughputTable(run)],
    segmentLines(run, c),
  ];
  return sections.filter((lines) => lines.length > 0).map((lines) => lines.join("\n")).join("\n\n");
}

/** Numbers for the live progress line. */
export type LiveLineStats = AttackProgress;

/**
 * One progress line for `\r` updates (no newline, no escape codes). Fields are padded to fixed widths so
 * successive lines rarely change length; the caller still clears the rest of the line when it can.
 */
export function renderLiveLine(s: LiveLineStats): string {
  const elapsed = Number.isFinite(s.elapsedSec) ? s.elapsedSec.toFixed(1) : "-";
  const total = s.totalSec === null || !Number.isFinite(s.totalSec) ? "" : ` / ${s.totalSec.toFixed(0)}s`;
  const pct = s.totalSec !== null && s.totalSec > 0 && Number.isFinite(s.elapsedSec)
    ? ` ${Math.min(100, Math.floor((s.elapsedSec / s.totalSec) * 100))}%`.padStart(5)
    : "";
  return [
    `[${elapsed.padStart(6)}s${total}${pct}]`,
    `${formatCount(s.requests).padStart(11)} req`,
    `${formatNumber(s.rps, 0).padStart(9)} req/s`,
    // Before the first response the p99 has no sample: "-", not "0 ms".
    `p99 ${(s.requests > 0 ? formatDurationMs(s.p99Ms) : "-").padStart(10)}`,
    `${formatCount(s.errors).padStart(7)} errors`,
  ].join("  ");
}
