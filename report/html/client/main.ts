/**
 * @module
 * report.html's script entry (`loadlabMain`): reads the embedded JSON, sets the theme, builds each section.
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
import { renderPhaseCharts, renderPhaseSummary, renderSearches, renderTargetCounters } from "./experiment.ts";
import { renderVariantMatrix } from "./variant_matrix.ts";
import { renderColdStart } from "./cold_start.ts";
import { renderKnees } from "./knee_table.ts";
import { renderSiteNav, siteData } from "./site.ts";
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
  const runs = renderRunSection(data);
  const overlay = h("div", { id: "overlay" });
  const pick = (name: string) => {
    runs.pick(name);
    runs.el.scrollIntoView({ behavior: "smooth" });
  };
  const sections = [
    renderSiteNav(),
    renderHeader(data),
    renderFindings(data),
    renderCompare(data),
    renderOverview(data, pick, () => renderOverlay(data, overlay)),
    renderComparisonCharts(data),
    renderVariantMatrix(data),
    renderPhaseCharts(data),
    renderPhaseSummary(data),
    h("section", { id: "distributions", class: "card" }, h("h2", null, "Latency distributions"), overlay),
    renderSweeps(data),
    renderKnees(data),
    renderColdStart(data),
    renderInstances(data),
    renderLittlesLaw(data),
    renderTargetCounters(data),
    renderSearches(data),
    renderProfileDiff(data),
    runs.el,
  ];
  for (const el of sections) if (el) app.appendChild(el);
  renderOverlay(data, overlay);
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
