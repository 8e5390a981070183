/**
 * @module
 * k6 v1's end-of-test summary text (`--summary-mode compact` or `full`), as k6 writes it. Pure.
 */
import {
  allChecks,
  checkText,
  counterMetric,
  type K6Check,
  type K6Metric,
  type K6SummaryData,
  metricLines,
  plainValues,
  rateMetric,
  sortByName,
  trendValue,
} from "./summary_text.ts";

/** k6's summary modes: v1's `compact` (default) and `full`, `legacy` (the 0.x layout), `disabled` (none). */
export type K6SummaryMode = "compact" | "full" | "legacy" | "disabled";

export const K6_SUMMARY_MODES: readonly K6SummaryMode[] = ["compact", "full", "legacy", "disabled"];

/** The metrics of each section, in k6's order (its custom metrics come first). */
const SECTIONS: Array<[title: string, holds: (name: string) => boolean]> = [
  ["HTTP", (n) => n.startsWith("http_")],
  ["EXECUTION", (n) => ["vus", "iteration", "dropped_iterations"].some((p) => n.startsWith(p))],
  ["NETWORK", (n) => n.startsWith("data_sent") || n.startsWith("data_received")],
  ["GRPC", (n) => n.startsWith("grpc_")],
  ["WEBSOCKET", (n) => n.startsWith("ws_")],
];

/** Left out of the metric sections: checks has its own block, and compact drops HTTP's timing phases. */
const SKIPPED = ["checks", "group_duration"];
const COMPACT_SKIPPED = ["blocked", "connecting", "receiving", "sending", "tls_handshaking", "waiting"]
  .map((phase) => `http_req_${phase}`);

/** A block's marker for a blank line (k6 joins lines so that one marker adds one line break). */
const BREAK = "\n";

/** One scenario's part of the run (`--summary-mode full`): its checks and its metrics. */
export type K6ScenarioPart = { checks: K6Check[]; metrics: Record<string, K6Metric> };

/** k6 v1's summary text of `data`; `full` mode adds a `█ SCENARIO: name` section per scenario. */
export function renderK6SummaryV1(
  data: K6SummaryData,
  mode: K6SummaryMode = "compact",
  scenarios: Record<string, K6ScenarioPart> = {},
): string {
  let out = "";
  const section = (title: string, lines: string[]) => {
    for (const line of [`  █ ${title} \n`, ...lines, BREAK]) out += line === BREAK ? BREAK : `\n${line}`;
  };
  const withRules = Object.keys(data.metrics).filter((n) =>
    Object.keys(data.metrics[n].thresholds ?? {}).length
  );
  if (withRules.length > 0) section("THRESHOLDS", thresholdLines(data, withRules));
  const skipped = mode !== "full" ? [...SKIPPED, ...COMPACT_SKIPPED] : SKIPPED;
  const total = { checks: allChecks(data.root_group), metrics: data.metrics };
  section("TOTAL RESULTS", resultLines(total, data, skipped));
  for (const name of mode === "full" ? Object.keys(scenarios).sort((a, b) => a.localeCompare(b)) : []) {
    section(`SCENARIO: ${name}`, resultLines(scenarios[name], data, skipped));
  }
  return out;
}

function resultLines(part: K6ScenarioPart, data: K6SummaryData, skipped: readonly string[]): string[] {
  const lines = checkLines(part.checks, data);
  const shown = Object.keys(part.metrics).filter((n) => !skipped.some((s) => n.startsWith(s)));
  const blocks = [["CUSTOM", (n: string) => !SECTIONS.some(([, h]) => h(n))] as const, ...SECTIONS]
    .map(([title, holds]) => [title, shown.filter(holds)] as const);
  const line = v1Lines(part.metrics, shown, data.options);
  for (const [title, names] of blocks) {
    if (names.length === 0) continue;
    lines.push(`    ${title}`, ...sortByName(names).map((n) => line.get(n)!), BREAK);
  }
  return lines;
}

function thresholdLines(data: K6SummaryData, names: string[]): string[] {
  const lines: string[] = [];
  for (const name of sortByName(names)) {
    const m = data.metrics[name], parent = name.split("{", 1)[0];
    const under = parent !== name && names.includes(parent);
    const indent = under ? "      " : "    ";
    lines.push(indent + (under ? name.slice(parent.length) : name));
    for (const [rule, { ok }] of Object.entries(m.thresholds ?? {})) {
      const stat = rule.split(/[=><!]/)[0].trim();
      lines.push(`${indent}${ok ? "✓" : "✗"} '${rule.trim()}' ${stat}=${judgedValue(m, stat, data)}`);
    }
    lines.push(BREAK);
  }
  return lines;
}

/** The value a threshold's line shows: the stat's, a counter's rate for any stat but its count. */
function judgedValue(m: K6Metric, stat: string, data: K6SummaryData): string {
  const unit = data.options.summaryTimeUnit;
  if (m.type === "trend") return trendValue(m.values[stat] ?? 0, stat, m, unit);
  return plainValues(m, unit)[m.type === "counter" && stat !== "count" ? 1 : 0];
}

function checkLines(checks: K6Check[], data: K6SummaryData): string[] {
  if (checks.length === 0) return [];
  const passes = checks.reduce((a, c) => a + c.passes, 0), fails = checks.reduce((a, c) => a + c.fails, 0);
  const metrics: Record<string, K6Metric> = {
    checks_total: counterMetric(passes + fails, data.state.testRunDurationMs / 1000),
    checks_succeeded: rateMetric(passes, fails),
    checks_failed: rateMetric(fails, passes),
  };
  const lines = [...v1Lines(metrics, Object.keys(metrics), data.options).values(), BREAK];
  for (const c of checks) lines.push(...checkText(c, "    ", "      "));
  lines.push(BREAK);
  return lines;
}

/** Each of `names`'s line as k6 v1 writes it: its name, dots and values in columns. */
function v1Lines(metrics: Record<string, K6Metric>, names: string[], opts: K6SummaryData["options"]) {
  const laid = [...metricLines(metrics, names, opts)];
  return new Map(
    laid.map(([n, l]) => [n, `    ${l.name}${l.dots}: ${l.cells.map((c) => c.join("")).join(" ")}`]),
  );
}
