/**
 * @module
 * The sections of report.html over the whole experiment: findings, `--compare` and the sortable overview.
 */
import type { PageData } from "../page/data.ts";
import { type OverviewMetric, overviewMetrics, type OverviewRow } from "../page/overview.ts";
import type { CompareCell } from "../compare.ts";
import type { CompareMetric } from "../../../results/conclude/noise_samples.ts";
import {
  type Cell,
  fmtChange,
  fmtMs,
  fmtMsBare,
  fmtNum,
  fmtPct,
  h,
  isNum,
  numeric,
  section,
  sortableTable,
} from "./dom.ts";

/** The findings block: a sentence per load comparing variants, untrusted runs, expected directions. */
export function renderFindings(data: PageData): HTMLElement | null {
  if (data.findings.length === 0) return null;
  const expected = data.findings.some((f) => f.kind === "expect") ? ", and the expected directions" : "";
  const sec = section(
    "findings",
    "Findings",
    "Computed from these results only: means over repeats, changes against the baseline (beyond noise " +
      `as the stored analysis judged it), flagged runs${expected}.`,
  );
  const items = data.findings.map((f) => h("li", { class: `finding ${f.kind} ${f.tone}` }, f.text));
  sec.appendChild(h("ul", { class: "findings" }, ...items));
  return sec;
}

/** A run verdict's badge class: green "ok", red for any `failed: ...` flag, else the accent colour. */
export function verdictClass(verdict: string): string {
  return verdict === "ok" ? "badge" : /(^|: )failed: /.test(verdict) ? "badge flag failed" : "badge flag";
}

export function verdictBadge(verdict: string): HTMLElement {
  return h("span", { class: verdictClass(verdict), title: "run verdict" }, verdict);
}

/** The headers of `sendCells`, after the run verdict's, each with `prefix` (a variant's name) when given. */
export function sendHeaders(prefix = ""): Array<{ label: string; num?: boolean; title: string }> {
  return [
    { label: `${prefix}verdict`, title: "run verdict: ok, or why loadlab does not trust the numbers" },
    { label: `${prefix}requested/s`, num: true, title: "open and throughput models: the rate asked for" },
    { label: `${prefix}sent`, num: true, title: "requests that went out (answered or failed)" },
    {
      label: `${prefix}dropped`,
      num: true,
      title: "intended sends dropped for being too late, and their share",
    },
  ];
}

/** Requested rate, sends made and dropped of an open-model row; dashes for closed models. */
export function sendCells(row: Pick<OverviewRow, "sends">): Cell[] {
  const s = row.sends;
  if (s === null) return [{ text: "–", sort: -1 }, { text: "–", sort: -1 }, { text: "–", sort: -1 }];
  const dropped = s.dropped > 0 ? `${fmtNum(s.dropped, 0)} (${fmtPct(s.droppedShare * 100)})` : "0";
  const drained = s.drained ?? 0;
  return [
    {
      text: fmtNum(s.requestedRps, 0) + (s.aboveRequested ? " (achieved above)" : ""),
      sort: s.requestedRps,
      title: s.aboveRequested ? "achieved req/s is above the requested rate beyond noise" : "",
    },
    {
      text: fmtNum(s.sent, 0) + (drained > 0 ? ` (${fmtNum(drained, 0)} drained)` : ""),
      sort: s.sent,
      title: drained > 0 ? "of them, answered after the load's end: not in the achieved req/s" : "",
    },
    { text: dropped, sort: s.droppedShare, cls: s.dropped > 0 ? "bad" : "" },
  ];
}

/** The baseline-vs-candidate table of `loadlab report --compare`. */
export function renderCompare(data: PageData): HTMLElement | null {
  if (!data.compare) return null;
  const sec = section(
    "compare",
    `Compared with baseline: ${data.compareName ?? ""}`,
    "Runs are matched by name. A change is marked beyond noise when the 95% confidence intervals of the " +
      "two runs do not overlap; each interval comes from one-second batch means of the run's own intervals " +
      "after its stabilization point (neighbouring 250 ms intervals are correlated, batches much less). " +
      "A pair where either run is generator-bound, incomplete, steered or short of its warm-up is not judged: " +
      "its numbers are loadlab's, not the target's. " +
      "● beyond noise (green better, red worse); grey: within noise; ?: noise not judged (why: below the " +
      "table, and on the change). The changes themselves compare whole-run values.",
  );
  const metrics = [["rps", "req/s"], ["p50", "p50"], ["p99", "p99"], ["success", "success %"]] as const;
  const headers = [
    { label: "run" },
    ...metrics.flatMap(([, label]) => [
      { label: `${label} before`, num: true },
      { label: `${label} after`, num: true },
      { label: `Δ ${label}`, num: true, title: "change in %, and whether it is beyond noise" },
    ]),
  ];
  const rows: Cell[][] = data.compare.map((row) => [
    { text: row.name, cls: "name" },
    ...metrics.flatMap(([m]) => compareCells(row.cells[m], m)),
  ]);
  sec.appendChild(sortableTable(headers, rows, "compare"));
  const why = noVerdictNote(data);
  if (why) sec.appendChild(h("p", { class: "note", id: "compare-no-verdict" }, why));
  const gate = renderGateTable(data);
  if (gate) sec.appendChild(gate);
  return sec;
}

/** The before, after and change cells of metric `m` of a matched pair (marked when beyond noise). */
export function compareCells(c: CompareCell, m: CompareMetric): Cell[] {
  const fmt = metricFormat(m, fmtMs);
  const good = isNum(c.changePct) && (c.changePct > 0) === (m === "rps" || m === "success");
  const mark = c.verdict === "beyond-noise" ? " ●" : c.verdict === "unknown" ? " ?" : "";
  return [
    { text: fmt(c.before), sort: c.before },
    { text: fmt(c.after), sort: c.after },
    {
      text: fmtChange(c.changePct) + mark,
      sort: c.changePct,
      cls: c.verdict === "beyond-noise" ? (good ? "good" : "bad") : "muted",
      title: `${c.statistic}: ${fmt(c.compared[0])} → ${fmt(c.compared[1])}; ` +
        `95% CI ± ${fmtNum(c.beforeCi, 3)} → ± ${fmtNum(c.afterCi, 3)}: ` +
        (c.notJudged === null ? c.verdict : `noise not judged: ${c.notJudged}`),
    },
  ];
}

/** Why some changes carry `?`, each reason once (short runs lack the noise rule's batches); null if none. */
export function noVerdictNote(data: PageData): string | null {
  const cells = (data.compare ?? []).flatMap((row) => Object.values(row.cells));
  const unknown = cells.filter((c) => c.verdict === "unknown");
  if (!unknown.length) return null;
  const whys = [...new Set(unknown.map((c) => c.notJudged ?? "no verdict"))];
  const quick = data.experiment.quick
    ? " This is a --quick run, whose runs are too short for three one-second batches after their " +
      "stabilization point; compare full runs (or longer ones) to tell a change from noise."
    : "";
  return `${unknown.length} of ${cells.length} changes have no verdict (?): noise not judged: ` +
    `${whys.join("; ")}.${quick}`;
}

/** How a metric of the overview or the compare view is shown: success in %, counts, else `ms`. */
export function metricFormat(m: string, ms: (x: number | null) => string): (x: number | null) => string {
  return m === "success" ? fmtPct : m === "rps" || m === "errors" || m === "lateSends" ? fmtNum : ms;
}

/** Text and sort value of one overview metric: the mean, then ± CI and the baseline change, small. */
export function overviewCell(row: OverviewRow, m: OverviewMetric): Cell {
  const v = row.metrics[m];
  const fmt = metricFormat(m, fmtMsBare);
  const lines: Node[] = [document.createTextNode(fmt(v.mean))];
  if (v.n > 1 && v.ci95 !== null && v.ci95 > 0) {
    lines.push(h("small", { class: "muted ci" }, `± ${fmt(v.ci95)}`));
  }
  const change = row.changePct?.[m];
  if (isNum(change)) {
    const higherIsBetter = m === "rps" || m === "success";
    const verdict = row.beyondNoise?.[m];
    const small = verdict === undefined ? Math.abs(change) < 1 : !verdict;
    const cls = small ? "muted" : (change > 0) === higherIsBetter ? "good" : "bad";
    const mark = verdict ? " ●" : "";
    lines.push(h("small", { class: `${cls} change` }, fmtChange(change) + mark));
  }
  // A busy machine qualifies the rate: its absolute value is that machine's then.
  if (m === "rps" && row.busyMachine) lines.push(h("small", { class: "muted" }, row.busyMachine));
  // Cut by the run's own stop: beside the errors, never among them.
  if (m === "errors" && (row.unfinished ?? 0) > 0) {
    lines.push(h("small", { class: "muted" }, `+ ${fmtNum(row.unfinished!, 0)} unfinished by gracefulStop`));
  }
  return { node: h("span", { class: "stack" }, ...lines), sort: v.mean };
}

/** The overview table; its checkboxes choose the runs of the percentile overlay. */
export function renderOverview(data: PageData, onPick: (run: string) => void, onChoose: () => void) {
  const sec = section("overview", "Overview", overviewNote(data));
  const metrics = overviewMetrics();
  const achieved = "served within the load window, per second (drain left out)";
  const headers = [
    { label: "✓" },
    { label: "run" },
    ...sendHeaders().slice(0, 1),
    { label: "model" },
    { label: "n", num: true },
    ...sendHeaders().slice(1),
    ...metrics.map(([m, label]) => ({ label, num: true, title: m === "rps" ? achieved : "" })),
  ];
  const ticked = defaultOverlayRows(data);
  const rows: Cell[][] = data.overview.map((row) => overviewRow(row, metrics, ticked, onPick, onChoose));
  sec.appendChild(sortableTable(headers, rows, "overview"));
  return sec;
}

/** The overview's note: how to use the table, and what the small figures mean for these results. */
export function overviewNote(data: PageData): string {
  const repeats = data.overview.some((r) => r.runs.length > 1);
  const baseline = data.experiment.baseline;
  return [
    "Click a header to sort, a name to open the run below, tick rows to overlay their percentile curves.",
    repeats ? "With repeats, cells show mean ± 95% confidence interval (Student's t) over the repeats." : "",
    baseline ? `Small figures: change against the baseline variant “${baseline}” at the same load.` : "",
    baseline && data.analysis ? `● beyond noise, ${data.analysis.noiseText}.` : "",
  ].join(" ");
}

/** One overview row: its overlay checkbox, the name that opens the run, verdict, model, sends and metrics. */
export function overviewRow(
  row: OverviewRow,
  metrics: ReturnType<typeof overviewMetrics>,
  ticked: string[],
  onPick: (run: string) => void,
  onChoose: () => void,
): Cell[] {
  const box = h("input", {
    type: "checkbox",
    "data-group": row.key,
    "aria-label": "overlay",
  }) as HTMLInputElement;
  box.checked = ticked.includes(row.key);
  box.addEventListener("change", onChoose);
  const link = h("button", { class: "link", type: "button" }, row.label);
  link.addEventListener("click", () => onPick(row.runs[0]));
  return [
    { node: box, sort: "" },
    { node: link, sort: row.label, cls: "name" },
    { node: verdictBadge(row.verdict), sort: row.verdict },
    { text: row.model },
    { text: String(row.runs.length), sort: row.runs.length },
    ...sendCells(row),
    ...metrics.map(([m]) => overviewCell(row, m)),
  ];
}

/** Rows ticked at first: the first row of each variant, then the next rows, at most four. */
export function defaultOverlayRows(data: PageData): string[] {
  const seen = new Set<string | null>();
  const first = data.overview.filter((r) => !seen.has(r.variant) && seen.add(r.variant));
  const rest = data.overview.filter((r) => !first.includes(r));
  return [...first, ...rest].slice(0, 4).map((r) => r.key);
}

/** The `--baseline` gate's verdicts in the terminal's words, under a heading; null without a baseline. */
export function renderGateTable(data: PageData): HTMLElement | null {
  if (!data.gate) return null;
  const wrap = h("div", { id: "gate" });
  wrap.appendChild(h("h3", {}, "Verdicts by run group (repeats pooled)"));
  const title =
    "beyond noise when the change's noise interval (95%, at least 5 standard errors wide) excludes zero";
  const headers = [{ label: "run group" }, { label: "metric" }, ...numeric("baseline", "this")];
  const rows: Cell[][] = data.gate.map((r) => [
    { text: r.key, cls: "name" },
    { text: r.metric },
    { text: fmtNum(r.baseline, 4), sort: r.baseline },
    { text: fmtNum(r.current, 4), sort: r.current },
    {
      text: r.text,
      sort: r.verdict,
      cls: r.failed || r.verdict === "worse" ? "bad" : r.verdict === "better" ? "good" : "muted",
    },
  ]);
  wrap.appendChild(sortableTable([...headers, { label: "verdict", title }], rows, "gate"));
  return wrap;
}
