/**
 * @module
 * The terminal summary: a `RunResult` in, text out. oha's layout then autocannon's tables, the run
 * verdict first, dropped and late sends beside the latency they distort, "-" for a run without samples.
 */

import { visibleLine } from "../../validation/terminal_text.ts";
import type { RunResult } from "../../results/mod.ts";
import { PERCENTILE_FIELDS, shownChecks } from "../../results/schema/keys.ts";
import {
  formatBytes,
  formatCount,
  formatDurationMs,
  formatNumber,
  formatPercent,
  formatPercentile,
  protocolTag,
} from "../../results/text_format.ts";
import { autocannonRows, boxTable } from "./tables.ts";
import { wsLines } from "./ws.ts";
import { endpointLines } from "./endpoints.ts";
import { generatorVerdict, HOST_TCP_LABEL, hostTcpLine, hostTcpTroubled } from "../generator_verdict.ts";
import { crowdOpening, crowdOpeningText } from "../../results/conclude/planned_connections.ts";
import { runVerdict } from "../../results/conclude/run_verdict.ts";
import {
  achievedAbove,
  formatShare,
  sendFacts,
  successQualifier,
} from "../../results/conclude/send_counts.ts";
import { latencySampled, measuredSuccessRate, sampledLatency } from "../../results/conclude/responses.ts";
import { drainedNote, unfinishedNote } from "../../results/conclude/served_rate.ts";
import { busyMachineNote } from "../../results/conclude/own_waits.ts";

interface SummaryOptions {
  /** ANSI colors (bold headings, red errors, yellow warnings); off by default for files and pipes. */
  color?: boolean;
  /** Where every endpoint is listed, for the endpoint table's line counting those it leaves out. */
  everyOne?: string;
}

const BAR_COLUMNS = 30;
const TOP_MESSAGES = 3;
const DISTRIBUTION = PERCENTILE_FIELDS.filter(([key]) => key !== "p2_5" && key !== "p97_5");

type Palette = ReturnType<typeof palette>;

function palette(color: boolean) {
  const ansi = (code: number) => (text: string) => color ? `\x1b[${code}m${text}\x1b[0m` : text;
  return { bold: ansi(1), red: ansi(31), yellow: ansi(33), green: ansi(32) };
}

/** Aligned `label: value` lines; a pair whose value is null or "" is left out. */
function fields(all: Array<[string, string | null]>): string[] {
  const pairs = all.filter((p): p is [string, string] => !!p[1]);
  const width = Math.max(...pairs.map(([label]) => label.length)) + 1;
  return pairs.map(([label, value]) => `  ${(label + ":").padEnd(width)}  ${value}`);
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
  const verdict = runVerdict(run); // green ok, red when failed, else yellow
  const tone = verdict.ok ? c.green : verdict.flags.some((f) => f.kind === "failed") ? c.red : c.yellow;
  const latency = sampledLatency(run);
  const unfinished = unfinishedNote(run);
  const busy = busyMachineNote(run);
  return [
    `${c.bold("Verdict:")} ${tone(verdict.label)}`,
    c.bold("Summary:"),
    ...fields([
      ["Success rate", (sends.sent === 0 ? rate : successColor(rate)) + successQualifier(run)],
      ["Total", formatDurationMs(run.durationSec * 1000)],
      ["Slowest", formatDurationMs(latency.max)],
      ["Fastest", formatDurationMs(latency.min)],
      ["Average", formatDurationMs(latency.mean)],
      ["Requests/sec", requestsLine],
      ["Requests", formatCount(run.requests)],
      [
        "Sent",
        sends.requestedRps === null ? null : `${formatCount(sends.sent)}, dropped ` +
          `${formatCount(sends.dropped)} (${formatShare(sends.droppedShare)} of intended sends)`,
      ],
      ["Unfinished", unfinished && `${unfinished}: cut by the run's own stop, not failures of the target`],
      ["Machine", busy && `${busy} during the run`],
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

/** The latency percentiles, with uncorrected ones and a stream's first message when the run has them. */
function distributionLines(run: RunResult, c: Palette): string[] {
  const columns = [
    ...(run.uncorrectedLatencyMs === null ? [] : [{ name: "uncorrected", of: run.uncorrectedLatencyMs }]),
    ...(run.firstMessage === undefined ? [] : [{
      name: `first message of ${formatCount(run.firstMessage.streams)} streams` +
        (run.firstMessage.warmupIncluded ? ", warm-up included" : ""),
      of: run.firstMessage.latencyMs,
    }]),
  ];
  const main = run.firstMessage === undefined ? "corrected" : "whole stream";
  const header = columns.length === 0
    ? "Response time distribution:"
    : `Response time distribution (${[main, ...columns.map((col) => col.name)].join(" | ")}):`;
  if (!latencySampled(run)) return [c.bold(header), "  (no responses)"];
  return [
    c.bold(header),
    ...DISTRIBUTION.map(([key, p]) => {
      const label = formatPercentile(p).padStart(7);
      const cells = [run.latencyMs, ...columns.map((col) => col.of)].map((l) => formatDurationMs(l[key]));
      const row = cells.map((cell, i) => i < cells.length - 1 ? cell.padEnd(10) : cell).join(" | ");
      return `  ${label} in ${row}`;
    }),
  ];
}

/** oha's connect times (average, fastest, slowest); none when the run measured no connects. */
function detailLines(run: RunResult, c: Palette): string[] {
  const t = run.connectTimeMs;
  if (t === null) return [];
  const times = [t.mean, t.min, t.max].map(formatDurationMs).join(", ");
  return [c.bold("Details (average, fastest, slowest):"), `  DNS+dialup:  ${times}`];
}

/** The status codes, each answered gRPC status with the messages its calls ended with. */
function statusLines(run: RunResult, c: Palette): string[] {
  const entries = Object.entries(run.statusCodes).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (entries.length === 0) return [];
  return [
    c.bold("Status code distribution:"),
    ...entries.flatMap(([code, count]) => {
      const line = `  [${code}] ${formatCount(count)} responses`;
      const ok = Number(code) >= 200 && Number(code) < 400;
      return [ok ? line : c.yellow(line), ...messageLines(run, code)];
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
    out.push(c.red(`  [${formatCount(count ?? 0)}] ${kind}`), ...messageLines(run, kind));
  }
  return out;
}

function messageLines(run: RunResult, kind: string): string[] {
  const messages = Object.entries(run.errorMessages[kind] ?? {}).sort((a, b) => b[1] - a[1]);
  const out = messages.slice(0, TOP_MESSAGES).map(([message, n]) =>
    `      ${formatCount(n)} × ${visibleLine(message)}`
  );
  if (messages.length > TOP_MESSAGES) out.push(`      … ${messages.length - TOP_MESSAGES} more messages`);
  return out;
}

/** Flow steps' checks, a line each with pass rate and counts, and sessions a capture ended. */
export function renderChecks(run: RunResult, opts: SummaryOptions = {}): string[] {
  const c = palette(opts.color ?? false);
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
      for (const check of shownChecks(s.checks)) {
        const total = check.passed + check.failed;
        const rate = total === 0
          ? "no responses"
          : `${((100 * check.passed) / total).toFixed(1)}% of ${formatCount(total)} passed ` +
            `(✓ ${formatCount(check.passed)} / ✗ ${formatCount(check.failed)})`;
        const line = `  ${f.name} / ${visibleLine(s.label)}: ${visibleLine(check.name)}: ${rate}`;
        out.push(check.failed > 0 ? c.red(line) : line);
      }
    }
  }
  return out.length === 0 ? [] : [c.bold("Checks:"), ...out];
}

/** The verdict line, late, waiting and dropped counts, start-up facts, and a warning when bound. */
function generatorLines(run: RunResult, { bold, yellow }: Palette): string[] {
  const v = generatorVerdict(run);
  if (v === null) return [];
  const bound = v.kind === "generator-bound" || v.kind === "server-bound";
  const hasSchedule = run.targetRps !== null || run.lateSends > 0;
  const out = [`${bold("Generator:")} ${bound ? yellow(v.sentence) : v.sentence}`];
  if (v.kind !== "closed") {
    out.push(
      `  Late sends: ${formatCount(run.lateSends)}, waited for a connection: ` +
        `${formatCount(run.serverBoundSends ?? 0)}, dropped sends: ${formatCount(run.droppedSends)}`,
    );
  }
  const startUp = startUpLine(run);
  if (startUp) out.push(`  Start-up: ${startUp}`);
  const crowd = crowdOpening(run);
  if (crowd !== null) out.push(`  Crowd: ${crowdOpeningText(crowd)}`);
  if (run.dataRanOutWorkers) {
    out.push(yellow(
      `  Data: rows ran out in ${formatCount(run.dataRanOutWorkers)} worker(s), which stopped sending ` +
        "there (whenDone: stop / order: unique): the run sent less than its load asked for.",
    ));
  }
  if (hostTcpTroubled(run)) {
    out.push(yellow(`  ${HOST_TCP_LABEL[0].toUpperCase()}${HOST_TCP_LABEL.slice(1)}: ${hostTcpLine(run)}`));
  }
  const warning = run.generatorBound && !hasSchedule
    ? "WARNING: the load worker was saturated: the load generator, not the target, limited this " +
      "run. Add workers (--workers), spread the crowd over machines (--segment), or do less per request."
    : run.generatorBound
    ? "WARNING: more than 1% of sends were late: the load generator, not the target, limited " +
      "this run. Lower the rate, add workers, or use a bigger machine."
    : run.serverBound
    ? "Server-bound: the target held every connection (at --max-connections, or connects slow): " +
      "the target, not the generator, limited this run."
    : null;
  return warning ? [...out, yellow(warning)] : out;
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

function joinSections(sections: string[][]): string {
  return sections.filter((lines) => lines.length > 0).map((lines) => lines.join("\n")).join("\n\n");
}

/** oha's part of the summary as report.html shows it; the page charts the bar histogram instead. */
export function ohaSummary(run: RunResult): string {
  const c = palette(false);
  return joinSections([
    overview(run, c),
    distributionLines(run, c),
    detailLines(run, c),
    statusLines(run, c),
    errorLines(run, c),
  ]);
}

/** The full end-of-run text for one run (no trailing newline). */
export function renderSummary(run: RunResult, opts: SummaryOptions = {}): string {
  const c = palette(opts.color ?? false);
  const autocannon = autocannonRows(run);
  return joinSections([
    overview(run, c),
    histogramLines(run, c),
    distributionLines(run, c),
    detailLines(run, c),
    statusLines(run, c),
    wsLines(run, c.bold),
    errorLines(run, c),
    endpointLines(run, { bold: c.bold, everyOne: opts.everyOne }),
    renderChecks(run, opts),
    generatorLines(run, c),
    [boxTable(autocannon.latency)],
    [boxTable(autocannon.throughput)],
    segmentLines(run, c),
  ]);
}
