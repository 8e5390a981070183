/**
 * @module
 * k6's summary data types and its legacy layouts: 0.x's end-of-test text and the `--summary-export`
 * file (importing nothing, so a converted script's `textSummary` type-checks anywhere).
 */
/** A metric of k6's summary. */
export interface K6Metric {
  type: "counter" | "gauge" | "rate" | "trend";
  contains: "default" | "time" | "data";
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

/** A check of k6's summary: its name, its path through the groups (`::api::status 200`), its counts. */
export type K6Check = { name: string; path: string; id: string; passes: number; fails: number };

/** A group of k6's summary (the root one has no name): its checks and the groups in it. */
export type K6Group = { name: string; path: string; id: string; groups: K6Group[]; checks: K6Check[] };

/** A k6 rate metric of `trues` against `falses` (a pass ratio: checks, http_req_failed). */
export function rateMetric(trues: number, falses: number): K6Metric {
  const rate = trues + falses > 0 ? trues / (trues + falses) : 0;
  return { type: "rate", contains: "default", values: { rate, passes: trues, fails: falses } };
}

/** A k6 counter of `count` over `sec` seconds. */
export function counterMetric(
  count: number,
  sec: number,
  contains: "default" | "data" = "default",
): K6Metric {
  return { type: "counter", contains, values: { count, rate: sec > 0 ? count / sec : 0 } };
}

/** Every check of `group` and the groups in it, in their order. */
export const allChecks = (group: K6Group): K6Check[] => [...group.checks, ...group.groups.flatMap(allChecks)];

/** k6's summary data for one run. */
export interface K6SummaryData {
  root_group: K6Group;
  options: { summaryTrendStats: string[]; summaryTimeUnit: string; noColor: boolean };
  state: { isStdOutTTY: boolean; isStdErrTTY: boolean; testRunDurationMs: number };
  metrics: Record<string, K6Metric>;
}

/** k6's `summaryTimeUnit` values (each a unit every time of the summary is written in): a ms in each. */
const PER_MS: Record<string, number> = { s: 0.001, ms: 1, us: 1000 };

/** Milliseconds in the summary's `summaryTimeUnit`, or undefined when it sets none. */
function inTimeUnit(ms: number, timeUnit: string): string | undefined {
  if (!Object.hasOwn(PER_MS, timeUnit)) return undefined;
  return `${(ms * PER_MS[timeUnit]).toFixed(2)}${timeUnit === "us" ? "µs" : timeUnit}`;
}

/** A number as k6's summaries write one of no unit: at most `places` decimals, no trailing zeros. */
const noTrailingZeros = (value: number, places = 6): string => String(Number(value.toFixed(places)));

function valuesText(m: K6Metric, options: K6SummaryData["options"]): string {
  const unit = options.summaryTimeUnit, v = m.values, stats = options.summaryTrendStats.filter((s) => s in v);
  if (m.type === "trend") return stats.map((s) => `${s}=${trendValue(v[s], s, m, unit)}`).join(" ");
  const [main, ...rest] = plainValues(m, unit);
  return m.type === "rate" ? `${main} ✓ ${v.passes} ✗ ${v.fails}` : [main, ...rest].join(" ");
}

/** A counter's, gauge's or rate's values: the main one, then the others. */
export function plainValues(m: K6Metric, timeUnit: string): string[] {
  const v = m.values, shown = (value = 0) => humanize(value, m, timeUnit);
  if (m.type === "counter") return [shown(v.count), `${shown(v.rate)}/s`];
  if (m.type === "rate") {
    return [shown(v.rate), `${v.passes ?? 0} out of ${(v.passes ?? 0) + (v.fails ?? 0)}`];
  }
  return [shown(v.value), `min=${shown(v.min)}`, `max=${shown(v.max)}`];
}

export function trendValue(value: number, stat: string, m: K6Metric, timeUnit: string): string {
  return stat === "count" ? String(value) : humanize(value, m, timeUnit);
}

function humanize(value: number, m: Pick<K6Metric, "type" | "contains">, timeUnit = ""): string {
  if (m.type === "rate") return (Math.trunc(value * 100 * 100) / 100).toFixed(2) + "%";
  if (m.contains === "data") return bytes(value);
  if (m.contains === "time") return inTimeUnit(value, timeUnit) ?? duration(value);
  return noTrailingZeros(value);
}

/** The mark before a metric: ✓ all its thresholds passed, ✗ one failed, blank without any. */
function mark(m: K6Metric): string {
  if (m.thresholds === undefined) return " ";
  return Object.values(m.thresholds).every((t) => t.ok) ? "✓" : "✗";
}

/** k6's summary text of `data`. */
export function renderK6Summary(data: K6SummaryData): string {
  const lines: string[] = [""];
  groupLines(data.root_group, "", lines);
  const names = Object.keys(data.metrics).sort();
  const width = Math.max(30, ...names.map((n) => n.length + 3));
  const row = (label: string, m: K6Metric) =>
    `   ${mark(m)} ${label}${".".repeat(Math.max(3, width - label.length))}: ${valuesText(m, data.options)}`;
  for (const name of names.filter((n) => !n.includes("{"))) {
    lines.push(row(name, data.metrics[name]));
    for (const sub of names.filter((n) => n.startsWith(`${name}{`))) {
      lines.push(row(`  { ${sub.slice(name.length + 1, -1)} }`, data.metrics[sub]));
    }
  }
  return lines.join("\n") + "\n";
}

function groupLines(group: K6Group, indent: string, lines: string[]): void {
  for (const c of group.checks) lines.push(...checkText(c, `${indent}     `, `${indent}      `));
  if (group.checks.length > 0) lines.push("");
  for (const inner of group.groups) {
    lines.push(`${indent}     █ ${inner.name}`, "");
    groupLines(inner, `${indent}  `, lines);
  }
}

/** A check's line as k6 writes it, and under a failed one its share passed (truncated, as k6's). */
export function checkText(c: K6Check, indent: string, under: string): string[] {
  const share = Math.floor((100 * c.passes) / (c.passes + c.fails));
  return [
    `${indent}${c.fails === 0 ? "✓" : "✗"} ${c.name}`,
    ...c.fails > 0 ? [`${under}↳  ${share}% — ✓ ${c.passes} / ✗ ${c.fails}`] : [],
  ];
}

type ExportedGroup = Omit<K6Group, "groups" | "checks"> & {
  groups: Record<string, ExportedGroup>;
  checks: Record<string, K6Check>;
};

/** `data` with each trend's stats those summaryTrendStats names (k6's default six), whatever rules judged. */
export function askedStats(data: K6SummaryData): K6SummaryData {
  const stats = data.options.summaryTrendStats, metrics = { ...data.metrics };
  const pick = (m: K6Metric) => Object.fromEntries(stats.map((s) => [s, m.values[s]]));
  for (const [n, m] of Object.entries(metrics)) {
    if (m.type === "trend") metrics[n] = { ...m, values: pick(m) };
  }
  return { ...data, metrics };
}

/** The legacy export of `data`, indented by 4 as k6 writes it. */
export function k6SummaryExport(data: K6SummaryData): string {
  const metrics: Record<string, Record<string, unknown>> = {};
  for (const [name, metric] of Object.entries(askedStats(data).metrics)) {
    const values: Record<string, unknown> = { ...metric.values };
    if (metric.type === "rate" && "rate" in values) {
      values.value = values.rate;
      delete values.rate;
    }
    const rules = Object.entries(metric.thresholds ?? {});
    if (rules.length > 0) values.thresholds = Object.fromEntries(rules.map(([rule, t]) => [rule, !t.ok]));
    metrics[name] = values;
  }
  return JSON.stringify({ root_group: byName(data.root_group), metrics }, null, 4);
}

/** A group whose `groups` and `checks` lists are objects by name, as k6's legacy summary keys them. */
function byName(group: K6Group): ExportedGroup {
  // One check per name in a group, as k6 counts a name checked at several places.
  const checks: Record<string, K6Check> = {};
  for (const c of group.checks) {
    const had = checks[c.name] ??= { ...c, passes: 0, fails: 0 };
    had.passes += c.passes, had.fails += c.fails;
  }
  return { ...group, groups: Object.fromEntries(group.groups.map((g) => [g.name, byName(g)])), checks };
}

function truncated(value: number, places: number): string {
  const scale = 10 ** places;
  return noTrailingZeros(Math.trunc(scale * value) / scale, places);
}

const UNITS = ["B", "kB", "MB", "GB", "TB", "PB"];

function bytes(n: number): string {
  if (n < 10) return `${n} B`;
  const e = Math.min(Math.floor(Math.log(n) / Math.log(1000)), UNITS.length - 1);
  const value = Math.floor((n / 1000 ** e) * 10 + 0.5) / 10;
  return `${value.toFixed(value < 10 ? 1 : 0)} ${UNITS[e]}`;
}

/** Milliseconds as k6 v1 writes them, no time unit set: ns, µs, ms, then s, m, h, truncated to 2 places. */
function duration(ms: number): string {
  if (ms === 0) return "0s";
  if (ms < 0.001) return `${Math.trunc(ms * 1e6)}ns`;
  if (ms < 1) return `${truncated(ms * 1000, 2)}µs`;
  if (ms < 1000) return `${truncated(ms, 2)}ms`;
  let text = `${truncated((ms % 60_000) / 1000, ms > 60_000 ? 0 : 2)}s`;
  let rest = Math.trunc(ms / 60_000);
  if (rest < 1) return text;
  text = `${rest % 60}m${text}`;
  rest = Math.trunc(rest / 60);
  return rest < 1 ? text : `${rest}h${text}`;
}
