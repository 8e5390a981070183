/**
 * @module
 * The pages of `loadlab site` in the browser: its report pages' navigation (`?base=<id>`) and its index.
 */
import type { PageData } from "../page/data.ts";
import type { SiteEntry, SiteNav } from "../site_data.ts";
import { type Cell, fmtNum, h, section, sortableTable, svg } from "./dom.ts";
import { maxOf } from "../../../system/large_arrays.ts";

/** The embedded navigation, or null outside `loadlab site`. */
export function siteNavData(): SiteNav | null {
  const el = document.getElementById("loadlab-site");
  return el ? JSON.parse(el.textContent ?? "null") : null;
}

/** "frameworks (quick, 2026-11-21 16:02, folder frameworks-2)": mode, date and folder tell runs apart. */
export function siteLabel(e: { id?: string; name: string; createdAt: string; quick?: boolean }): string {
  const parts = [
    e.quick ? "quick" : "",
    e.createdAt.slice(0, 16).replace("T", " "),
    e.id ? `folder ${e.id}` : "",
  ];
  return `${e.name} (${parts.filter((p) => p).join(", ")})`;
}

/** The page's data with the comparison against the URL's `?base=` experiment, when there is one. */
export function siteData(data: PageData): PageData {
  const nav = siteNavData();
  const base = new URLSearchParams(location.search).get("base");
  if (!nav || !base || !Object.hasOwn(nav.compares, base)) return data;
  const baseline = nav.experiments.find((e) => e.id === base);
  return { ...data, compare: nav.compares[base], compareName: baseline ? siteLabel(baseline) : base };
}

/** A `<select>` of every experiment; `none` adds a first "(none)" option with an empty value. */
export function siteSelect(nav: SiteNav, id: string, chosen: string | null, none?: string) {
  const select = h("select", { id }) as HTMLSelectElement;
  if (none) select.appendChild(h("option", { value: "" }, none));
  for (const e of nav.experiments) {
    const option = h("option", { value: e.id }, siteLabel(e)) as HTMLOptionElement;
    option.selected = e.id === chosen;
    select.appendChild(option);
  }
  return select;
}

/** Where the report of `candidate` compared with `base` lives, relative to a page at `root`. */
export function siteHref(root: string, candidate: string, base: string | null): string {
  const query = base && base !== candidate ? `?base=${encodeURIComponent(base)}` : "";
  return `${root}e/${encodeURIComponent(candidate)}.html${query}`;
}

/** The bar atop a site report page: index link, candidate and baseline pickers; null outside the site. */
export function renderSiteNav(): HTMLElement | null {
  const nav = siteNavData();
  if (!nav || nav.current === null) return null;
  const current = nav.current;
  const base = new URLSearchParams(location.search).get("base");
  const candidate = siteSelect(nav, "site-candidate", current);
  const baseline = siteSelect(nav, "site-baseline", base, "(no baseline)");
  const go = () => {
    location.href = siteHref(nav.root, candidate.value, baseline.value || null);
  };
  candidate.addEventListener("change", go);
  baseline.addEventListener("change", go);
  return h(
    "nav",
    { class: "card", id: "site-nav" },
    h("a", { href: `${nav.root}index.html` }, "← all experiments"),
    " · candidate ",
    candidate,
    " · baseline ",
    baseline,
  );
}

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
