/**
 * @module
 * k6's summary types and legacy layouts (0.x text, `--summary-export`); no imports, so scripts type-check.
 */
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
  /** What setup() returned, as JSON reads it (undefined: none). */
  setup_data?: unknown;
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

export function humanize(value: number, m: Pick<K6Metric, "type" | "contains">, timeUnit = ""): string {
  if (m.type === "rate") return (Math.trunc(value * 100 * 100) / 100).toFixed(2) + "%";
  if (m.contains === "data") return bytes(value);
  if (m.contains === "time") return inTimeUnit(value, timeUnit) ?? duration(value);
  return noTrailingZeros(value);
}

type Paint = (text: string, ...codes: number[]) => string;
const FAINT = 2, RED = 31, GREEN = 32, CYAN = 36;
/** Columns a string takes on a terminal: its code points once normalized, as k6's `strWidth` counts. */
const width = (text: string) => [...text.normalize("NFKC")].length;

/** A metric's name as a summary line shows it: a submetric's tags in braces, indented under its metric. */
const displayName = (n: string) => n.includes("{") ? `  { ${n.slice(n.indexOf("{") + 1, -1)} }` : n;

/** k6's order: by metric name, a metric's submetrics after it by their tags. */
export function sortByName(names: string[]): string[] {
  return [...names].sort((a, b) => {
    const pa = a.split("{", 1)[0], pb = b.split("{", 1)[0];
    return pa.localeCompare(pb) || a.slice(pa.length).localeCompare(b.slice(pb.length));
  });
}

/** A metric line's cell: a trend's `stat=`, the value, the spaces that line it up with its column. */
type Cell = [head: string, value: string, pad: string];

/**
 * Each of `names`'s name with its dots and its cells, as both of k6's layouts line them up: a column as wide
 * as its widest value (trends' with trends'), a single extra unpadded. `rates` "marks" is jslib's `✓ 3 ✗ 1`.
 */
export function metricLines(
  metrics: Record<string, K6Metric>,
  names: string[],
  { summaryTimeUnit: unit, summaryTrendStats: stats }: K6SummaryData["options"],
  rates: "marks" | "out of" = "out of",
): Map<string, { name: string; dots: string; cells: Cell[] }> {
  const widths = { trend: [] as number[], plain: [] as number[] };
  const column = (n: string) => widths[metrics[n].type === "trend" ? "trend" : "plain"];
  const rows = names.map((n): Cell[] => {
    const m = metrics[n], [main, ...extras] = plainValues(m, unit);
    const row: Cell[] = m.type === "trend"
      ? stats.map((s) => [`${s}=`, trendValue(m.values[s], s, m, unit), ""])
      : [
        main,
        ...m.type === "rate" && rates === "marks" ? [`✓ ${m.values.passes}`, `✗ ${m.values.fails}`] : extras,
      ]
        .map((v) => ["", v, ""]);
    row.forEach(([, v], i) => column(n)[i] = Math.max(column(n)[i] ?? 0, width(v)));
    return row;
  });
  const nameWidth = Math.max(0, ...names.map((n) => width(displayName(n)))) + 3;
  return new Map(names.map((n, k) => {
    const cells = rows[k], padded = metrics[n].type === "trend" || cells.length > 2, name = displayName(n);
    for (const [i, c] of cells.entries()) {
      if (padded || i === 0) c[2] = " ".repeat(column(n)[i] - width(c[1]));
    }
    return [n, { name, dots: ".".repeat(nameWidth - width(name)), cells }];
  }));
}

/**
 * k6's text summary as jslib's k6-summary `textSummary` writes it (`indent`, `enableColors`): checks by
 * group, then each metric's dots and values in columns; `rates` "out of" is `--summary-mode legacy`'s.
 */
export function textSummary(
  data: K6SummaryData,
  options: { indent?: string; enableColors?: boolean } = {},
  rates: "marks" | "out of" = "marks",
): string {
  const { indent = " ", enableColors = true } = options;
  const paint: Paint = (text, ...codes) => enableColors ? `\x1b[${codes.join(";")}m${text}\x1b[0m` : text;
  const lines = groupLines(data.root_group, `${indent}    `, paint);
  const names = sortByName(Object.keys(data.metrics));
  for (const [n, { name, dots, cells }] of metricLines(data.metrics, names, data.options, rates)) {
    const m = data.metrics[n], failed = Object.values(m.thresholds ?? {}).some((t) => !t.ok);
    const mark = m.thresholds === undefined ? " " : paint(failed ? "✗" : "✓", failed ? RED : GREEN);
    const values = cells.map(([head, v, pad], i) =>
      head + paint(v, ...head || i === 0 ? [CYAN] : [CYAN, FAINT]) + pad
    );
    // A submetric's indent goes before its mark.
    const sub = name.startsWith(" ") ? "  " : "";
    lines.push(`${indent}  ${sub}${mark} ${name.trimStart()}${paint(`${dots}:`, FAINT)} ${values.join(" ")}`);
  }
  return lines.join("\n");
}

function groupLines(group: K6Group, indent: string, paint: Paint): string[] {
  const lines = group.name === "" ? [] : [`${indent}█ ${group.name}\n`];
  const inner = group.name === "" ? indent : `${indent}  `;
  for (const c of group.checks) {
    lines.push(paint(checkText(c, inner, `${inner} `).join("\n"), c.fails === 0 ? GREEN : RED));
  }
  if (group.checks.length > 0) lines.push("");
  for (const g of group.groups) lines.push(...groupLines(g, inner, paint));
  return lines;
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
