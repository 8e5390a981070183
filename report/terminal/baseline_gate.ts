/**
 * @module
 * The `--baseline` gate's verdicts, a sentence per metric, for the terminal, the CI summary and compare view.
 */
import type { GateMetric } from "../../results/fail_on.ts";
import type { GateResult, GroupVerdict, MetricVerdict } from "../../results/baseline_gate.ts";

/** The unit a metric's values are shown in (success and dropped as percentages; their changes in points). */
export const METRIC_UNITS: Record<GateMetric, string> = {
  p50: "ms",
  p99: "ms",
  rps: "req/s",
  success: "%",
  dropped: "%",
};

/** How the interval was measured, for the reader: the repeats, or one run's own intervals. */
export function noiseText(m: MetricVerdict, group: GroupVerdict): string {
  return m.noise === "repeats"
    ? `Welch over ${group.baselineRuns}+${group.currentRuns} repeats`
    : `within-run interval variation: ${group.baselineRuns}+${group.currentRuns} runs, too few repeats for Welch`;
}

/** Which runs paired with the baseline and which did not, as [kind, keys], in reading order. */
export function pairingNotes(gate: GateResult): Array<[string, string[]]> {
  return [
    [
      "paired",
      gate.groups.filter((g) => !g.flagged).map((g) => `${g.key} (${g.baselineRuns}+${g.currentRuns})`),
    ],
    ["paired but flagged", gate.groups.filter((g) => g.flagged).map((g) => `${g.key} (${g.flagged})`)],
    [
      "sent to another origin",
      gate.groups.filter((g) => g.target && !g.selector).map((g) => `${g.key} (${g.target})`),
    ],
    ["not in the baseline", gate.unpaired],
    ["only in the baseline", gate.baselineOnly],
    ["left out, stopped early", gate.leftOut],
  ];
}

/** `worse: 10.3 → 12.5 ms, +21.3% (...; noise interval ...)` or `no verdict: ...`, with failed rules. */
export function verdictText(m: MetricVerdict, group: GroupVerdict, gate: GateResult): string {
  const label = m.verdict === "same"
    ? "same (within noise)"
    : m.verdict === "unknown"
    ? "no verdict"
    : m.verdict;
  const share = METRIC_UNITS[m.metric] === "%";
  const signed = (x: number) => `${x > 0 ? "+" : ""}${share ? x : x.toFixed(1)}`;
  const unit = share ? " pp" : "%";
  const [point, ci] = share ? [m.diff, m.diffCi95] : [m.changePct, m.changeCi95Pct];
  const level = (x: number) => `${Number(x.toPrecision(4))}`;
  const [from, to] = m.compared;
  const levels = Number.isFinite(from) && Number.isFinite(to)
    ? `${level(from)} → ${level(to)} ${METRIC_UNITS[m.metric]}, `
    : "";
  const change = Number.isFinite(point) ? `${levels}${signed(point)}${unit}` : "no change measured";
  const why = m.verdict === "unknown"
    ? `not judged: ${m.notJudged ?? "noise not measured"}`
    : ci === null
    ? "noise not measured"
    : `noise interval ${signed(ci[0])}${unit === "%" ? "%" : ""} to ${signed(ci[1])}${unit}` +
      (m.waits ? `, ${m.waits}` : "");
  const stat = m.floor ? `${m.floor}: ${m.statistic}` : m.statistic;
  const parts = [`${label}: ${change} (${stat}; ${why}; ${noiseText(m, group)})`];
  if (group.neighbours) parts.push(group.neighbours);
  if (m.failed.length) parts.push(`FAILS ${m.failed.join(", ")}`);
  if (gate.otherMachine.length) {
    parts.push(`baseline from another machine/build: ${gate.otherMachine.join(", ")} differ`);
  }
  return parts.join("; ");
}

/** The gate's verdicts, a row per run group and metric, each verdict in words (`verdictText`). */
export function gateRows(gate: GateResult) {
  return gate.groups.flatMap((g) =>
    g.metrics.map((m) => ({
      key: g.key,
      metric: m.metric,
      baseline: m.baseline,
      current: m.current,
      verdict: m.verdict,
      failed: m.failed,
      text: verdictText(m, g, gate),
    }))
  );
}
