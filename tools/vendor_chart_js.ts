/**
 * @module
 * Copies the installed Chart.js UMD bundle to `report/assets/vendor/chart.umd.min.js` (the package does
 * not export it). Run after bumping chart.js: `deno run --allow-read --allow-write tools/vendor_chart_js.ts`.
 */
import { Chart } from "chart.js";

/** Absolute path of the installed package's minified UMD bundle. */
export function installedChartUmdPath(): string {
  // "chart.js" resolves to <package>/dist/chart.js; the UMD bundle sits beside it.
  const esmUrl = new URL(import.meta.resolve("chart.js"));
  return decodeURIComponent(new URL("./chart.umd.min.js", esmUrl).pathname);
}

/** Where the vendored copy lives. */
export const VENDORED_CHART_UMD = new URL("../report/assets/vendor/chart.umd.min.js", import.meta.url);

if (import.meta.main) {
  await Deno.mkdir(new URL("../report/assets/vendor/", import.meta.url), { recursive: true });
  await Deno.copyFile(installedChartUmdPath(), VENDORED_CHART_UMD);
  console.log(`wrote ${VENDORED_CHART_UMD.pathname} (chart.js ${Chart.version})`);
}
