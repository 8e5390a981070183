/**
 * @module
 * The HTML report of loadlab: `renderReport(results, { compare })` returns one self-contained
 * report.html (Chart.js, CSS, script and data inlined, no network, strict CSP). Pure: no `Deno.*`;
 * the CLI writes the string to disk.
 *
 * @example
 * ```ts
 * const html = renderReport(results, { compare: baseline });
 * ```
 */
export { type RenderOptions, renderReport } from "./render.ts";
export { buildPageData, type PageData } from "./page/data.ts";
