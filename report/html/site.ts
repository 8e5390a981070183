/**
 * @module
 * The pages of `loadlab site`, each embedding its comparisons so picking a baseline needs no server. Pure.
 */
import { buildCompare, type CompareRow } from "./compare.ts";
import { clientSource, htmlPage, renderReport } from "./render.ts";
import { siteEntries, type SiteExperiment, type SiteNav } from "./site_data.ts";

function navList(experiments: SiteExperiment[]): SiteNav["experiments"] {
  return siteEntries(experiments).map(({ id, name, createdAt, quick }) => ({ id, name, createdAt, quick }));
}

/** The report page of experiment `id` (`e/<id>.html`), with comparisons against every other one. */
export function renderSiteReport(experiments: SiteExperiment[], id: string): string {
  const current = experiments.find((e) => e.id === id);
  if (!current) throw new Error(`no experiment "${id}" in the site`);
  const compares: Record<string, CompareRow[]> = {};
  for (const other of experiments) {
    if (other.id !== id) compares[other.id] = buildCompare(other.results, current.results);
  }
  const site: SiteNav = { root: "../", experiments: navList(experiments), current: id, compares };
  return renderReport(current.results, { site });
}

/** The index page (`index.html`): every experiment, and the baseline/candidate picker. */
export function renderSiteIndex(experiments: SiteExperiment[]): string {
  const entries = siteEntries(experiments);
  const site: SiteNav = { root: "", experiments: navList(experiments), current: null, compares: {} };
  return htmlPage({
    title: `loadlab results (${entries.length})`,
    noscript: `This index draws its table with JavaScript; the list is embedded in the page
source as JSON (the element with id "loadlab-data").`,
    footer: "Made by loadlab. Self-contained: works offline; the data is embedded as JSON (#loadlab-data).",
    json: [["loadlab-data", entries], ["loadlab-site", site]],
    scripts: [clientSource("loadlabIndex")],
  });
}

/** Every file of the site by relative path: the index and one report per experiment. */
export function* sitePages(experiments: SiteExperiment[]): Generator<[string, () => string]> {
  yield ["index.html", () => renderSiteIndex(experiments)];
  for (const { id } of experiments) yield [`e/${id}.html`, () => renderSiteReport(experiments, id)];
}
