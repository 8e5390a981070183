/// <reference lib="dom" />
/**
 * @module
 * The index page of `loadlab site` (`loadlabIndex`): one row per experiment and the comparison picker.
 */
import type { SiteEntry } from "../site_data.ts";
import { type Cell, fmtNum, h, section, sortableTable, svg } from "./dom.ts";
import { siteHref, siteNavData, siteSelect } from "./site_nav.ts";
import { maxOf } from "../../../system/large_arrays.ts";

/** A 120 x 24 line of `values` (scaled to their own maximum), with the values as its tooltip. */
export function sparkline(values: number[]): Element {
  const [width, height] = [120, 24];
  const label = `req/s per run: ${values.map((v) => fmtNum(v)).join(", ")}`;
  const box = { width: String(width), height: String(height), viewBox: `0 0 ${width} ${height}` };
  const title = svg("title", null, values.map((v) => fmtNum(v)).join(" · "));
  const max = Math.max(maxOf(values), 1e-9);
  const step = values.length > 1 ? (width - 4) / (values.length - 1) : 0;
  const points = values.map((v, i) => `${2 + i * step},${height - 2 - (v / max) * (height - 4)}`);
  const stroke = { stroke: "currentColor", "stroke-width": "1.5" };
  const dot = { cx: "60", cy: points[0]?.split(",")[1] ?? "12", r: "2" };
  const line = values.length > 1
    ? svg("polyline", { points: points.join(" "), fill: "none", ...stroke })
    : svg("circle", { ...dot, fill: "currentColor", ...stroke });
  return svg("svg", { ...box, role: "img", "aria-label": label }, title, line);
}

export function renderIndexTable(entries: SiteEntry[]): HTMLElement {
  const headers = [
    { label: "experiment" },
    { label: "folder", title: "where its results.json is, under the site's folder" },
    { label: "mode", title: "quick: run with --quick, shorter runs of the same shape" },
    { label: "date" },
    { label: "git commit" },
    { label: "runs", num: true },
    { label: "thresholds", title: "passed / failed" },
    { label: "metrics out", title: "--out: intervals streamed to Prometheus / OpenTelemetry while it ran" },
    { label: "req/s per run" },
  ];
  const rows: Cell[][] = entries.map((e) => [
    {
      node: h("a", { href: siteHref("", e.id, null) }, e.name),
      sort: e.name,
      cls: "name",
      title: e.description ?? "",
    },
    { text: e.id, title: "folder" },
    {
      text: e.quick ? "quick" : "full",
      title: e.quick ? "--quick: shorter runs; changes against it often have no noise verdict (?)" : "",
    },
    { text: e.createdAt.slice(0, 19).replace("T", " "), sort: e.createdAt },
    { text: e.gitCommit ? e.gitCommit.slice(0, 10) : "–", title: e.gitCommit ?? "" },
    { text: String(e.runs) + (e.complete === false ? " (incomplete)" : ""), sort: e.runs },
    {
      node: e.thresholdsPassed + e.thresholdsFailed === 0 ? h("span", { class: "muted" }, "none") : h(
        "span",
        { class: e.thresholdsFailed ? "bad" : "good" },
        `${e.thresholdsPassed} passed, ${e.thresholdsFailed} failed`,
      ),
      sort: e.thresholdsFailed,
    },
    metricsOutCell(e.metricsOut),
    { node: sparkline(e.rps), sort: Math.max(0, maxOf(e.rps)) },
  ]);
  return sortableTable(headers, rows, "site-index");
}

/** "all sent", or how many points the receivers miss (their series are incomplete); "–" without `--out`. */
export function metricsOutCell(m: SiteEntry["metricsOut"]): Cell {
  if (m === null) return { node: h("span", { class: "muted" }, "–"), sort: -1 };
  return {
    node: m.undelivered > 0
      ? h("span", { class: "bad" }, `incomplete: ${m.undelivered} not delivered`)
      : h("span", { class: "good" }, "all sent"),
    title: m.outputs,
    sort: m.undelivered,
  };
}

/** Builds the index page from `#loadlab-data` (the entries) and `#loadlab-site`. */
export function loadlabIndex(): void {
  const entries: SiteEntry[] = JSON.parse(document.getElementById("loadlab-data")!.textContent ?? "[]");
  const nav = siteNavData()!;
  const app = document.getElementById("app")!;
  app.replaceChildren();
  const list = section("experiments", `Experiments (${entries.length})`);
  list.appendChild(
    entries.length ? renderIndexTable(entries) : h("p", { class: "note" }, "No results.json found."),
  );
  app.appendChild(list);
  if (entries.length < 2) return;
  const baseline = siteSelect(nav, "site-baseline", entries[1].id);
  const candidate = siteSelect(nav, "site-candidate", entries[0].id);
  const open = h("a", { id: "site-compare", href: "#" }, "Compare");
  const update = () => open.setAttribute("href", siteHref("", candidate.value, baseline.value));
  baseline.addEventListener("change", update);
  candidate.addEventListener("change", update);
  update();
  const compare = section(
    "compare-picker",
    "Compare two experiments",
    "Runs are paired by name, as `loadlab report --compare` pairs them; the comparison's URL keeps the choice.",
  );
  compare.append(
    h("label", null, "baseline "),
    baseline,
    " → ",
    h("label", null, "candidate "),
    candidate,
    " ",
    open,
  );
  app.appendChild(compare);
}
