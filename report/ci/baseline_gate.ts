/**
 * @module
 * The `--baseline` gate's verdicts as a markdown section of the CI step summary; names escaped.
 */
import type { GateResult } from "../../results/baseline_gate.ts";
import { METRIC_UNITS, verdictText } from "../terminal/baseline_gate.ts";

/** The section's lines (empty without a gate); `escape` is the summary's markdown escaping. */
export function gateMarkdown(gate: GateResult | undefined, escape: (text: string) => string): string[] {
  if (!gate) return [];
  const head = gate.failed
    ? "❌ worse than the baseline past a --fail-on rule"
    : gate.unjudged.length
    ? "❌ not judged: a --fail-on rule checked no run"
    : "✅ no --fail-on rule fired";
  const lines = ["", `### Against the baseline: ${head}`, ""];
  if (gate.otherMachine.length) {
    lines.push(
      `⚠️ The baseline ran on another machine or build (${
        gate.otherMachine.join(", ")
      } differ): every verdict is weak.`,
      "",
    );
  }
  if (gate.groups.length === 0) lines.push("No run has a run of the same name in the baseline.");
  else lines.push("| run | metric | baseline | this | verdict |", "| --- | --- | ---: | ---: | --- |");
  for (const g of gate.groups) {
    for (const m of g.metrics) {
      const mark = m.failed.length ? "❌ " : m.verdict === "worse" ? "⚠️ " : "";
      lines.push(
        `| ${escape(g.key)} | ${m.metric} ${METRIC_UNITS[m.metric]} | ${m.baseline} | ${m.current} | ${mark}${
          escape(verdictText(m, g, gate))
        } |`,
      );
    }
  }
  for (const u of gate.unjudged) {
    lines.push("", `Rule "${escape(u.rule)}" checked no run: ${escape(u.reason)}.`);
  }
  const flagged = gate.groups.filter((g) => g.flagged).map((g) => `${g.key} (${g.flagged})`);
  if (flagged.length) lines.push("", `Paired but flagged: ${escape(flagged.join(", "))}.`);
  if (gate.unpaired.length) lines.push("", `Not in the baseline: ${escape(gate.unpaired.join(", "))}.`);
  if (gate.baselineOnly.length) {
    lines.push("", `Only in the baseline: ${escape(gate.baselineOnly.join(", "))}.`);
  }
  if (gate.leftOut.length) lines.push("", `Left out, stopped early: ${escape(gate.leftOut.join(", "))}.`);
  return lines;
}
