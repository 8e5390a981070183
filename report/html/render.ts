/**
 * @module
 * `renderReport`: results in, one self-contained report.html out. Chart.js, the page's CSS and script
 * and the data are all inlined; the data sits in a `<script type="application/json">` block with every
 * `<` escaped, so no string from a target can close the block, and the page reads it with
 * `JSON.parse`, never as code. The Content-Security-Policy allows nothing external and only the page's
 * own script and style blocks, by SHA-256 hash, so even injected markup could not run. The browser
 * script is the client modules' functions inlined by their source text, which keeps it type-checked
 * and part of the module graph (the same output from `deno run` and a compiled binary). Pure.
 */
import { escapeInvisible } from "../../results/json_text.ts";
import { createHash } from "node:crypto";
import type { ResultsFile } from "../../results/mod.ts";
import type { FailOn } from "../../results/fail_on.ts";
import { CHART_JS_SOURCE, CHART_JS_VERSION } from "../assets/chart_js.ts";
import { buildPageData } from "./page/data.ts";
import { PAGE_CSS } from "./page/css.ts";
import { formatExponent, isHuge } from "../../results/text_format.ts";
import * as dom from "./client/dom.ts";
import * as charts from "./client/charts.ts";
import * as toolTables from "./client/tool_tables.ts";
import * as sections from "./client/sections.ts";
import * as reportHeader from "./client/report_header.ts";
import * as overviewCharts from "./client/overview_charts.ts";
import * as runDetail from "./client/run_detail.ts";
import * as profiles from "./client/profiles.ts";
import * as runCharts from "./client/run_charts.ts";
import * as endpoints from "./client/endpoints.ts";
import * as runtimeCharts from "./client/runtime_charts.ts";
import * as coldStart from "./client/cold_start.ts";
import * as kneeTable from "./client/knee_table.ts";
import * as littlesLaw from "./client/littles_law.ts";
import * as instances from "./client/instances.ts";
import * as targetCounters from "./client/target_counters.ts";
import * as experiment from "./client/experiment.ts";
import * as phaseSummary from "./client/phase_summary.ts";
import * as variantMatrix from "./client/variant_matrix.ts";
import * as siteNav from "./client/site_nav.ts";
import * as gateTable from "./client/gate_table.ts";
import * as siteIndex from "./client/site_index.ts";
import * as live from "./client/live.ts";
import * as liveControls from "./client/live_controls.ts";
import * as main from "./client/main.ts";
import type { SiteNav } from "./site_data.ts";

/** Options of `renderReport`. */
export interface RenderOptions {
  /** A baseline results file: adds the before/after comparison of runs with the same name. */
  compare?: ResultsFile;
  /** `--fail-on` rules applied to the gate verdicts shown beside the comparison. */
  failOn?: FailOn[];
  /**
   * The live dashboard's page (cli/dashboard/server.ts): the stream's `connect-src 'self'`, the live entry.
   */
  live?: boolean;
  /** `loadlab site`: the navigation (index link, baseline and candidate pickers) embedded beside the data. */
  site?: SiteNav;
  /** `--no-redact`: embed secrets (URL passwords, credential headers) as they are. */
  keepSecrets?: boolean;
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Bidi marks, embeddings, overrides and isolates: each reorders the text after it on its line. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `\u202e` for U+202E: a bidi control as the text that names it. */
function bidiEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * `text` with each bidi control written as its escape (`\u202e`), shown as such: a name in a results file
 * holding U+202E reversed the rest of its line, so `actual: 3.31 ms` read `sm 13.3`.
 */
export function visibleBidi(text: string): string {
  return text.replace(BIDI_CONTROLS, bidiEscape);
}

/**
 * JSON that is safe inside a `<script>` element: `<` cannot start `</script>` or `<!--`, and no line
 * separator is written literally (results/json_text.ts). Each bidi control becomes its escape as text
 * (`visibleBidi`), since the page shows the strings it embeds.
 */
export function jsonForScript(value: unknown): string {
  // JSON.stringify writes bidi controls literally and only inside strings, where `\\` is one backslash.
  const json = JSON.stringify(value).replace(/</g, "\\u003c").replace(
    BIDI_CONTROLS,
    (c) => `\\${bidiEscape(c)}`,
  );
  // Invisible characters (U+2028 and U+2029 among them, which end a line in old JavaScript) escaped.
  return escapeInvisible(json);
}

/** Script text that cannot end its element early; `<\/` means the same as `</` in JS strings and regexes. */
export function scriptSafe(js: string): string {
  return js.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
}

function sha256(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

const clientScripts = new Map<string, string>();

/**
 * The page's own script: every exported client function by source text, then the entry call
 * (`loadlabMain` for report.html, `loadlabLive` for the dashboard, `loadlabIndex` for the site's index).
 */
export function clientSource(entry = "loadlabMain"): string {
  const cached = clientScripts.get(entry);
  if (cached !== undefined) return cached;
  // The terminal's exponent rule, the one definition both sides print huge numbers by (client/dom.ts).
  const shared = { isHuge, formatExponent };
  const fns = [
    shared,
    dom,
    charts,
    toolTables,
    sections,
    reportHeader,
    overviewCharts,
    runDetail,
    profiles,
    runCharts,
    endpoints,
    runtimeCharts,
    coldStart,
    kneeTable,
    littlesLaw,
    instances,
    targetCounters,
    experiment,
    phaseSummary,
    variantMatrix,
    siteNav,
    gateTable,
    siteIndex,
    live,
    liveControls,
    main,
  ]
    .flatMap((m) => Object.values(m))
    .filter((v): v is (...args: never[]) => unknown => typeof v === "function");
  const body = fns.map((f) => f.toString()).join("\n\n");
  const script = scriptSafe(`(function () {\n"use strict";\n${body}\n\n${entry}();\n})();\n`);
  clientScripts.set(entry, script);
  return script;
}

/** The Content-Security-Policy: nothing external, only these exact script and style blocks. */
export function contentSecurityPolicy(scripts: string[], styles: string[], connectSelf = false): string {
  return [
    "default-src 'none'",
    `script-src ${scripts.map(sha256).join(" ")}`,
    `style-src ${styles.map(sha256).join(" ")}`,
    "img-src data:",
    ...(connectSelf ? ["connect-src 'self'"] : []),
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/** What differs between loadlab's pages; `htmlPage` adds the common head, CSP, `#app` and footer. */
export interface PageParts {
  title: string;
  /** Head lines after the common ones, each ending in a newline. */
  meta?: string;
  /** Inside `<noscript>`: what the page would show and where its data is. */
  noscript: string;
  footer: string;
  /** `<script type="application/json">` blocks, by element id, in order. */
  json: Array<[id: string, value: unknown]>;
  /** Script blocks, in order; the CSP allows exactly these. */
  scripts: string[];
  /** The CSP's `connect-src 'self'` (the live dashboard's stream). */
  connectSelf?: boolean;
}

/** One self-contained page: the CSP allows only its own style and script blocks. */
export function htmlPage(p: PageParts): string {
  const csp = contentSecurityPolicy(p.scripts, [PAGE_CSS], p.connectSelf);
  const json = p.json.map(([id, value]) =>
    `<script type="application/json" id="${id}">${jsonForScript(value)}</script>\n`
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
${p.meta ?? ""}<title>${escapeHtml(visibleBidi(p.title))}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<main id="app"><noscript>${p.noscript}</noscript></main>
<footer>${p.footer}</footer>
${json.join("")}${p.scripts.map((script) => `<script>${script}</script>\n`).join("")}</body>
</html>
`;
}

/** Renders the whole report page for `results`. */
export function renderReport(results: ResultsFile, opts: RenderOptions = {}): string {
  const version = escapeHtml(results.environment.loadlab);
  return htmlPage({
    title: `${results.experiment.name} — loadlab report`,
    meta: `<meta name="generator" content="loadlab ${version}">\n`,
    noscript: `This report draws its tables and charts with JavaScript; the results are embedded
in the page source as JSON (the element with id "loadlab-data").`,
    footer: `Made by loadlab ${version} with Chart.js ${CHART_JS_VERSION}.
Self-contained: works offline; the data is embedded as JSON (#loadlab-data).`,
    json: [
      [
        "loadlab-data",
        buildPageData(results, opts.compare, { keepSecrets: opts.keepSecrets, failOn: opts.failOn }),
      ],
      ...(opts.site ? [["loadlab-site", opts.site] as [string, unknown]] : []),
    ],
    scripts: [scriptSafe(CHART_JS_SOURCE), clientSource(opts.live ? "loadlabLive" : "loadlabMain")],
    connectSelf: opts.live,
  });
}
