/**
 * @module
 * What CI reads after `--summary FILE.md --junit FILE.xml`, pure: a markdown step summary and JUnit XML.
 */
import { endpointQualifier, shownEndpointRows } from "../endpoint_rows.ts";
import type { Analysis, ResultsFile, RunResult, ThresholdResult } from "../../results/mod.ts";
import { describeNoiseRule } from "../html/page/experiment.ts";
import { runVerdict } from "../../results/conclude/run_verdict.ts";
import { formatShare, sendFacts } from "../../results/conclude/send_counts.ts";
import { measuredSuccessRate, noResponse, sampledLatency } from "../../results/conclude/responses.ts";
import { buildFindings } from "../../results/conclude/findings.ts";
import { capacityText } from "../../results/conclude/capacity.ts";
import { quickRanNote } from "../quick_values.ts";
import { gateRows, METRIC_UNITS, pairingNotes } from "../terminal/baseline_gate.ts";
import type { GateResult } from "../../results/baseline_gate.ts";
import {
  abortNote,
  flaggedRunNote,
  flaggedRunPhrase,
  formatThresholdActual,
  thresholdRunVerdict,
} from "../../results/thresholds/text.ts";
import { countOrDash, fixedOrDash } from "../../results/text_format.ts";
import { terminalSafe, visibleLine } from "../../validation/terminal_text.ts";

/** Markdown-safe text: one line, controls and bidi characters escaped, HTML entities, markdown escaped. */
export function escapeMarkdown(text: string): string {
  return visibleLine(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/([\\`*_[\]|#~!])/g, "\\$1");
}

/** What XML 1.0 cannot hold once control characters are gone: its two noncharacters. */
const NOT_XML = /[\ufffe\uffff]/g;

/** XML-safe text: controls and bidi removed, lone surrogates as U+FFFD, the five specials as entities. */
export function escapeXml(text: string): string {
  return terminalSafe(text)
    .toWellFormed()
    .replace(NOT_XML, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

function sendCells(r: RunResult): string {
  const f = sendFacts(r);
  const requested = f.requestedRps === null ? "–" : countOrDash(f.requestedRps);
  const dropped = f.dropped > 0 ? `${countOrDash(f.dropped)} (${formatShare(f.droppedShare)})` : "0";
  // The drain is among the sends, never in the achieved rate (results/conclude/served_rate.ts).
  const drained = (r.drained ?? 0) > 0 ? ` (${countOrDash(r.drained!)} drained)` : "";
  return `${requested} | ${countOrDash(f.sent)}${drained} | ${dropped} | ${countOrDash(r.rps)}`;
}

function runsTable(runs: RunResult[]): string[] {
  const lines = [
    "| run | verdict | requested/s | sent | dropped | achieved req/s | p50 ms | p99 ms | success |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const r of runs) {
    const v = runVerdict(r);
    const verdict = v.ok
      ? "ok"
      : `${v.flags.some((f) => f.kind === "failed") ? "❌" : "⚠️"} ${escapeMarkdown(v.label)}`;
    const latency = sampledLatency(r); // "–" without a response, not 0
    const success = measuredSuccessRate(r) * 100;
    const shown = Number.isFinite(success) ? `${fixedOrDash(success, 2)}%` : "–";
    lines.push(
      `| ${escapeMarkdown(r.name)} | ${verdict} | ${sendCells(r)} | ${fixedOrDash(latency.p50, 2)} | ` +
        `${fixedOrDash(latency.p99, 2)} | ${shown} |`,
    );
  }
  return lines;
}

function thresholdLines(thresholds: ThresholdResult[], runs: RunResult[]): string[] {
  if (thresholds.length === 0) return [];
  const failed = thresholds.filter((t) => !t.ok).length;
  const head = failed ? `${failed} of ${thresholds.length} thresholds failed` : "All thresholds passed";
  const lines = [
    "",
    `### Thresholds: ${head}`,
    "",
    "| | threshold | run | actual | run verdict |",
    "| --- | --- | --- | ---: | --- |",
  ];
  for (const t of [...thresholds].sort((a, b) => Number(a.ok) - Number(b.ok))) {
    const v = thresholdRunVerdict(t, runs);
    const verdict = v === null ? "–" : v.ok ? "ok" : `⚠️ ${escapeMarkdown(flaggedRunPhrase(v))}`;
    lines.push(
      `| ${t.ok ? "✅ pass" : "❌ FAIL"} | ${escapeMarkdown(t.expression)} | ${escapeMarkdown(t.run)} | ` +
        `${formatThresholdActual(t.expression, t.actual)} | ${verdict} |`,
    );
  }
  return lines;
}

function comparisonLines(results: ResultsFile): string[] {
  const analysis = results.analysis;
  if (!analysis || analysis.comparisons.length === 0) return [];
  const baseline = escapeMarkdown(results.experiment.baseline ?? "the baseline");
  const beyond = analysis.comparisons.filter((c) => c.beyondNoise);
  const lines = [
    "",
    `### Changes against ${baseline} beyond noise`,
    "",
    `Noise ${describeNoiseRule(analysis)}.`,
    "",
  ];
  if (beyond.length === 0) return [...lines, "No change is beyond noise."];
  lines.push("| group | metric | baseline | this | change |", "| --- | --- | ---: | ---: | ---: |");
  const byKey = new Map(analysis.groups.map((g) => [g.key, g]));
  for (const c of beyond) {
    const [mine, base] = [byKey.get(c.group), byKey.get(c.baselineGroup)];
    const digits = c.metric === "rps" ? 0 : 2;
    const sign = c.changePct > 0 ? "+" : "";
    const [was, now] = [base, mine].map((g) => fixedOrDash(g?.metrics[c.metric].mean ?? Number.NaN, digits));
    lines.push(
      `| ${escapeMarkdown(c.group)} | ${c.metric === "rps" ? "req/s" : c.metric} | ${was} | ${now} | ` +
        `${sign}${fixedOrDash(c.changePct, 1)}% |`,
    );
  }
  return lines;
}

function searchAndKneeLines(analysis: Analysis | undefined, runs: RunResult[]): string[] {
  const lines: string[] = [];
  for (const s of analysis?.searches ?? []) {
    const text = escapeMarkdown(capacityText(s, runs));
    lines.push(`- ${text.charAt(0).toUpperCase()}${text.slice(1)}`);
  }
  for (const k of analysis?.knees ?? []) {
    if (k.value === null) continue;
    const where = escapeMarkdown([k.variant, k.load].filter((p) => p !== null).join("/"));
    lines.push(
      `- Knee of ${where} over ${escapeMarkdown(k.parameter)}: ${k.value} (${escapeMarkdown(k.reason)})`,
    );
  }
  return lines.length ? ["", "### Capacity", "", ...lines] : [];
}

/** The tables' lines (each run's heading and rows), empty when no run has several endpoints. */
export function endpointMarkdown(runs: RunResult[], escape: (text: string) => string): string[] {
  const lines: string[] = [];
  for (const run of runs) {
    const { rows, omitted } = shownEndpointRows(run);
    if (rows.length < 2) continue;
    const qualifier = endpointQualifier(run);
    lines.push(
      "",
      `### Endpoints of ${escape(run.name)} (slowest p99 first${qualifier ? `; ${qualifier}` : ""})`,
      "",
      "| endpoint | requests | req/s | failed | p50 ms | p99 ms | max ms |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const r of rows) {
      const pooled = r.pooledRequests > 1 ? ` (${r.pooledRequests} requests pooled)` : "";
      const failed = countOrDash(r.failed);
      lines.push(
        `| ${escape(r.name)}${pooled} | ${countOrDash(r.requests)} | ${countOrDash(r.rps)} | ${failed} | ` +
          `${fixedOrDash(r.p50Ms, 2)} | ${fixedOrDash(r.p99Ms, 2)} | ${fixedOrDash(r.maxMs, 2)} |`,
      );
    }
    if (omitted) lines.push("", escape(omitted));
  }
  return lines;
}

/** The section's lines (empty without a gate); `escape` is the summary's markdown escaping. */
function gateMarkdown(gate: GateResult | undefined, escape: (text: string) => string): string[] {
  if (!gate) return [];
  const head = gate.failed
    ? "❌ worse than the baseline past a --fail-on rule"
    : gate.unjudged.length
    ? "❌ not judged: a --fail-on rule checked no run"
    : "✅ no --fail-on rule fired";
  const lines = ["", `### Against the baseline: ${head}`, ""];
  if (gate.otherMachine.length) {
    const which = gate.otherMachine.join(", ");
    lines.push(
      `⚠️ The baseline ran on another machine or build (${which} differ): every verdict is weak.`,
      "",
    );
  }
  if (gate.groups.length === 0) lines.push("No run has a run of the same name in the baseline.");
  else lines.push("| run | metric | baseline | this | verdict |", "| --- | --- | ---: | ---: | --- |");
  for (const r of gateRows(gate)) {
    const mark = r.failed.length ? "❌ " : r.verdict === "worse" ? "⚠️ " : "";
    lines.push(
      `| ${escape(r.key)} | ${r.metric} ${METRIC_UNITS[r.metric]} | ${r.baseline} | ${r.current} | ` +
        `${mark}${escape(r.text)} |`,
    );
  }
  for (const u of gate.unjudged) {
    lines.push("", `Rule "${escape(u.rule)}" checked no run: ${escape(u.reason)}.`);
  }
  // Below the table: the pairs flagged and the runs that did not pair, a sentence per kind.
  for (const [kind, keys] of pairingNotes(gate).slice(1)) {
    if (keys.length) lines.push("", `${kind[0].toUpperCase()}${kind.slice(1)}: ${escape(keys.join(", "))}.`);
  }
  return lines;
}

/** The findings block (results/conclude/findings.ts) as a list, first. */
function findingLines(results: ResultsFile): string[] {
  const findings = buildFindings(results);
  if (findings.length === 0) return [];
  const mark = { plain: "", warn: "⚠️ ", good: "✅ ", bad: "❌ " } as const;
  return ["### Findings", "", ...findings.map((f) => `- ${mark[f.tone]}${escapeMarkdown(f.text)}`), ""];
}

/** The markdown step summary of an experiment; `gate` adds the `--baseline` verdicts. */
export function renderMarkdownSummary(results: ResultsFile, opts: { gate?: GateResult } = {}): string {
  const runs = results.runs.filter((r) => !r.probe);
  const quick = quickRanNote(results);
  const stopped = abortNote(results);
  const status = stopped
    ? ` — stopped: ${stopped}`
    : results.complete === false
    ? " — incomplete: not every planned run finished"
    : "";
  const lines = [
    `## loadlab: ${escapeMarkdown(results.experiment.name)}`,
    "",
    ...(results.experiment.description ? [escapeMarkdown(results.experiment.description), ""] : []),
    ...(quick ? [escapeMarkdown(quick), ""] : []),
    `${runs.length} run${runs.length === 1 ? "" : "s"}${status}.`,
    "",
    ...findingLines(results),
    ...runsTable(runs),
    ...endpointMarkdown(runs, escapeMarkdown),
    ...thresholdLines(results.thresholds, results.runs),
    ...comparisonLines(results),
    ...gateMarkdown(opts.gate, escapeMarkdown),
    ...searchAndKneeLines(results.analysis, results.runs),
  ];
  return lines.join("\n") + "\n";
}

/** One property per shown endpoint of a run of several, slowest p99 first, then how many more. */
function endpointProperties(run: RunResult): string {
  const { rows, omitted } = shownEndpointRows(run);
  if (rows.length < 2) return "";
  const more = omitted ? `<property name="loadlab.endpoints omitted" value="${escapeXml(omitted)}"/>` : "";
  return rows.map((r) => {
    const [requests, failed] = [countOrDash(r.requests), countOrDash(r.failed)];
    const [p50, p99] = [fixedOrDash(r.p50Ms, 2), fixedOrDash(r.p99Ms, 2)];
    const value = escapeXml(`requests ${requests}, failed ${failed}, p50 ${p50} ms, p99 ${p99} ms`);
    return `<property name="${escapeXml(`loadlab.endpoint ${r.name}`)}" value="${value}"/>`;
  }).join("") + more;
}

/** The run verdict as a JUnit property and a system-out line, which CI test views show beside the case. */
function verdictXml(run: RunResult | undefined): { properties: string; systemOut: string } {
  if (!run) return { properties: "", systemOut: "" };
  const label = escapeXml(runVerdict(run).label);
  return {
    properties: `      <properties><property name="loadlab.verdict" value="${label}"/>` +
      `${endpointProperties(run)}</properties>\n`,
    systemOut: `      <system-out>run verdict: ${label}</system-out>\n`,
  };
}

/** One `<testcase>`, timed by its run when it has one, holding `body` (properties, failure, output). */
function testcaseXml(classname: string, name: string, run: RunResult | undefined, body: string): string {
  const attrs = `classname="${escapeXml(classname)}" name="${escapeXml(name)}"` +
    (run ? ` time="${fixedOrDash(run.durationSec, 3)}"` : "");
  return body ? `    <testcase ${attrs}>\n${body}    </testcase>` : `    <testcase ${attrs}/>`;
}

/** A `<failure>` of `type` with its message, and as its text the message after `who` when given. */
function failureXml(type: string, message: string, who?: string): string {
  const text = who === undefined ? "/>" : `>${escapeXml(`${who}: ${message}`)}</failure>`;
  return `      <failure type="${type}" message="${escapeXml(message)}"${text}\n`;
}

function testcase(t: ThresholdResult, run: RunResult | undefined): string {
  const { properties, systemOut } = verdictXml(run);
  const message = `actual ${formatThresholdActual(t.expression, t.actual)}, expected ${t.expression}` +
    (run ? flaggedRunNote(t, [run]) : "");
  const failure = t.ok ? "" : failureXml("threshold", message, t.run);
  return testcaseXml(`loadlab.${t.run}`, t.expression, run, properties + failure + systemOut);
}

/** A case per `--fail-on` rule: failed with the cells that fail it (exit 7), or why none checked it (8). */
function gateCases(gate: GateResult): string[] {
  return gate.rules.map((rule) => {
    const cells = gateRows(gate).filter((r) => r.failed.includes(rule)).map((r) =>
      `${r.key} ${r.metric}: ${r.text}`
    );
    const unjudged = gate.unjudged.find((u) => u.rule === rule);
    const failure = cells.length ? failureXml("baseline-gate", cells.join("; ")) : "";
    const why = unjudged ? failureXml("not-judged", `checked no run: ${unjudged.reason}`) : "";
    return testcaseXml("loadlab.baseline", rule, undefined, failure || why);
  });
}

/** JUnit XML: one case per threshold, run, `--fail-on` rule; `strict` adds run verdicts, else no-response. */
export function renderJunit(results: ResultsFile, options: { strict?: boolean; gate?: GateResult } = {}) {
  const byName = new Map(results.runs.map((r) => [r.name, r]));
  const gate = options.gate ? gateCases(options.gate) : [];
  const cases = [...results.thresholds.map((t) => testcase(t, byName.get(t.run))), ...gate];
  let failures = results.thresholds.filter((t) => !t.ok).length +
    gate.filter((c) => c.includes("<failure")).length;
  // --strict: a "run verdict" case per run, failing when flagged (exit 6); else one per run without a
  // response, failing (exit 4) with or without --strict.
  const [type, title] = options.strict ? ["verdict", "run verdict"] : ["no-response", "got a response"];
  for (const run of results.runs.filter((r) => !r.probe && (options.strict || noResponse(r)))) {
    const v = runVerdict(run);
    const failure = v.ok ? "" : failureXml(type, v.label, run.name);
    cases.push(testcaseXml(`loadlab.${run.name}`, title, run, failure));
    if (!v.ok) failures++;
  }
  if (results.complete === false) {
    failures++;
    const failure = failureXml("incomplete", "the experiment stopped before every planned run finished");
    cases.push(testcaseXml("loadlab", "every planned run finished", undefined, failure));
  }
  const name = escapeXml(results.experiment.name);
  const counts = `tests="${cases.length}" failures="${failures}" errors="0"`;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="loadlab" ${counts}>`,
    `  <testsuite name="${name}" ${counts} timestamp="${escapeXml(results.createdAt)}">`,
    ...cases,
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}
