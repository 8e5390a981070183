/// <reference lib="dom" />
/**
 * @module
 * Entry point of report.html's script (`loadlabMain`): reads the embedded JSON, sets the theme,
 * builds every section. Inlined by source text (see dom.ts).
 */
import type { PageData } from "../page/data.ts";
import { h } from "./dom.ts";
import { applyChartTheme, destroyCharts } from "./charts.ts";
import { renderCompare, renderFindings, renderOverview } from "./sections.ts";
import { renderHeader } from "./report_header.ts";
import { renderComparisonCharts, renderOverlay, renderSweeps } from "./overview_charts.ts";
import { renderRunSection } from "./run_detail.ts";
import { renderLittlesLaw } from "./littles_law.ts";
import { renderInstances } from "./instances.ts";
import { renderTargetCounters } from "./target_counters.ts";
import { renderPhaseCharts, renderSearches } from "./experiment.ts";
import { renderPhaseSummary } from "./phase_summary.ts";
import { renderVariantMatrix } from "./variant_matrix.ts";
import { renderColdStart } from "./cold_start.ts";
import { renderKnees } from "./knee_table.ts";
import { renderSiteNav, siteData } from "./site_nav.ts";
import { renderProfileDiff } from "./profiles.ts";

declare const Chart: any;

/** Builds the page from the `#loadlab-data` JSON block (with `loadlab site`'s choice of baseline). */
export function loadlabMain(): void {
  const data: PageData = siteData(JSON.parse(document.getElementById("loadlab-data")!.textContent ?? "{}"));
  applyChartTheme();
  renderApp(data);
  watchThemeAndPrint();
}

/** Builds every section into `#app`, destroying the previous snapshot's charts first. */
export function renderApp(data: PageData): void {
  const app = document.getElementById("app")!;
  destroyCharts(app);
  app.replaceChildren();
  const nav = renderSiteNav();
  if (nav) app.appendChild(nav);
  app.appendChild(renderHeader(data));
  const findings = renderFindings(data);
  if (findings) app.appendChild(findings);
  const compare = renderCompare(data);
  if (compare) app.appendChild(compare);
  const runs = renderRunSection(data);
  const overlay = h("div", { id: "overlay" });
  const pick = (name: string) => {
    runs.pick(name);
    runs.el.scrollIntoView({ behavior: "smooth" });
  };
  app.appendChild(renderOverview(data, pick, () => renderOverlay(data, overlay)));
  const comparison = renderComparisonCharts(data);
  if (comparison) app.appendChild(comparison);
  const matrix = renderVariantMatrix(data);
  if (matrix) app.appendChild(matrix);
  const phases = renderPhaseCharts(data);
  if (phases) app.appendChild(phases);
  const phaseSummary = renderPhaseSummary(data);
  if (phaseSummary) app.appendChild(phaseSummary);
  const distSection = h(
    "section",
    { id: "distributions", class: "card" },
    h("h2", null, "Latency distributions"),
    overlay,
  );
  app.appendChild(distSection);
  renderOverlay(data, overlay);
  const sweeps = renderSweeps(data);
  if (sweeps) app.appendChild(sweeps);
  const knees = renderKnees(data);
  if (knees) app.appendChild(knees);
  const coldStart = renderColdStart(data);
  if (coldStart) app.appendChild(coldStart);
  const instances = renderInstances(data);
  if (instances) app.appendChild(instances);
  const littlesLaw = renderLittlesLaw(data);
  if (littlesLaw) app.appendChild(littlesLaw);
  const counters = renderTargetCounters(data);
  if (counters) app.appendChild(counters);
  const searches = renderSearches(data);
  if (searches) app.appendChild(searches);
  const profiles = renderProfileDiff(data);
  if (profiles) app.appendChild(profiles);
  app.appendChild(runs.el);
}

/** Re-themes charts on colour-scheme changes and around printing. */
export function watchThemeAndPrint(): void {
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", applyChartTheme);
  const opened: HTMLDetailsElement[] = [];
  addEventListener("beforeprint", () => {
    document.documentElement.classList.add("printing");
    for (const d of document.querySelectorAll("details")) {
      if (!d.open) {
        d.open = true;
        opened.push(d);
      }
    }
    applyChartTheme();
    for (const c of Object.values(Chart.instances) as any[]) c.resize();
  });
  addEventListener("afterprint", () => {
    document.documentElement.classList.remove("printing");
    for (const d of opened.splice(0)) d.open = false;
    applyChartTheme();
    for (const c of Object.values(Chart.instances) as any[]) c.resize();
  });
}
