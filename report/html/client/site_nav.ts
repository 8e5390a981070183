/// <reference lib="dom" />
/**
 * @module
 * The navigation of `loadlab site`'s report pages; the baseline lives in the URL (`?base=<id>`).
 */
import type { PageData } from "../page/data.ts";
import type { SiteNav } from "../site_data.ts";
import { h } from "./dom.ts";

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
