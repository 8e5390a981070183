/**
 * @module
 * The HTML report: `renderReport(results, { compare })` returns one self-contained report.html.
 */
export { type RenderOptions, renderReport } from "./render.ts";
export { buildPageData, type PageData } from "./page/data.ts";
