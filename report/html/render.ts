/**
 * @module
 * `renderReport`: results in, one self-contained report.html out; `writeReport` writes it atomically.
 */
import { escapeHtml, escapeInvisible, unicodeEscape } from "../../validation/terminal_text.ts";
import { createHash } from "node:crypto";
import type { ResultsFile } from "../../results/mod.ts";
import type { FailOn } from "../../results/fail_on.ts";
import { CHART_JS_SOURCE, CHART_JS_VERSION } from "../assets/chart_js.ts";
import { buildPageData } from "./page/data.ts";
import { PAGE_CSS } from "./page/css.ts";
import * as textFormat from "../../results/text_format.ts";
import { maxOf, minOf } from "../../system/large_arrays.ts";
import { writeTextAtomic } from "../../system/output_file.ts";
import * as dom from "./client/dom.ts";
import * as charts from "./client/charts.ts";
import * as sections from "./client/sections.ts";
import * as reportHeader from "./client/report_header.ts";
import * as overviewCharts from "./client/overview_charts.ts";
import * as runDetail from "./client/run_detail.ts";
import * as profiles from "./client/profiles.ts";
import * as runCharts from "./client/run_charts.ts";
import * as endpoints from "./client/endpoints.ts";
import * as coldStart from "./client/cold_start.ts";
import * as kneeTable from "./client/knee_table.ts";
import * as littlesLaw from "./client/littles_law.ts";
import * as instances from "./client/instances.ts";
import * as experiment from "./client/experiment.ts";
import * as variantMatrix from "./client/variant_matrix.ts";
import * as site from "./client/site.ts";
import * as live from "./client/live.ts";
import * as main from "./client/main.ts";
import type { SiteNav } from "./site_data.ts";
import { loadModelFacts, modelFactsOf } from "../../results/load_models.ts";
import { fitLine, meanOf, median } from "../../results/stats.ts";
import { instancesOf } from "../../results/conclude/expect_verdict.ts";
import { pooledSends } from "./page/verdict.ts";
import { overviewMetrics } from "./page/overview.ts";

interface RenderOptions {
  /** A baseline results file: adds the before/after comparison of runs with the same name. */
  compare?: ResultsFile;
  /** `--fail-on` rules applied to the gate verdicts shown beside the comparison. */
  failOn?: FailOn[];
  /** The live dashboard's page: the stream's `connect-src 'self'`, the live entry. */
  live?: boolean;
  /** `loadlab site`: the navigation (index link, baseline and candidate pickers) embedded beside the data. */
  site?: SiteNav;
  /** `--no-redact`: embed secrets (URL passwords, credential headers) as they are. */
  keepSecrets?: boolean;
}

/** Bidi controls, written as escapes in the title and the page's JSON so a name cannot reverse its line. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** JSON safe inside a `<script>` element, invisible characters escaped and bidi controls shown. */
export function jsonForScript(value: unknown): string {
  const json = JSON.stringify(value).replace(/</g, "\\u003c");
  return escapeInvisible(json.replace(BIDI_CONTROLS, (c) => `\\${unicodeEscape(c)}`));
}

function scriptSafe(js: string): string {
  return js.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
}

function sha256(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

const clientScripts = new Map<string, string>();

/** The page's script: every exported client function by source text, then the entry call. */
export function clientSource(entry = "loadlabMain"): string {
  const cached = clientScripts.get(entry);
  if (cached !== undefined) return cached;
  const stats = { maxOf, minOf, median, meanOf, fitLine };
  const shared = { modelFactsOf, loadModelFacts, instancesOf, pooledSends, overviewMetrics };
  const fns = [
    stats,
    shared,
    textFormat,
    dom,
    charts,
    sections,
    reportHeader,
    overviewCharts,
    runDetail,
    profiles,
    runCharts,
    endpoints,
    coldStart,
    kneeTable,
    littlesLaw,
    instances,
    experiment,
    variantMatrix,
    site,
    live,
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
function contentSecurityPolicy(scripts: string[], styles: string[], connectSelf = false): string {
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
interface PageParts {
  title: string;
  meta?: string;
  /** Inside `<noscript>`: what the page would show and where its data is. */
  noscript: string;
  footer: string;
  /** `<script type="application/json">` blocks, by element id, in order. */
  json: Array<[id: string, value: unknown]>;
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
${p.meta ?? ""}<title>${escapeHtml(p.title.replace(BIDI_CONTROLS, unicodeEscape))}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<main id="app"><noscript>${p.noscript}</noscript></main>
<footer>${p.footer}</footer>
${json.join("")}${p.scripts.map((script) => `<script>${script}</script>\n`).join("")}</body>
</html>
`;
}

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

export async function writeReport(path: string, results: ResultsFile, opts: RenderOptions = {}) {
  await writeTextAtomic(path, renderReport(results, opts));
}
