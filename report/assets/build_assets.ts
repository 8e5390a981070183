/**
 * @module
 * Copies the installed Chart.js UMD bundle to `vendor/chart.umd.min.js`, which `chart_js.ts` text-imports
 * into report.html. The package does not export its UMD file, so an import of it does not resolve, and
 * reading the npm cache at run time would break inside a `deno compile`d binary; a vendored file is part of
 * the module graph everywhere. Run after bumping chart.js in deno.json:
 * `deno run --allow-read --allow-write report/assets/build_assets.ts`; `chart_js_test.ts` fails until
 * you do.
 */
import { Chart } from "chart.js";

/** Absolute path of the installed package's minified UMD bundle. */
export function installedChartUmdPath(): string {
  // "chart.js" resolves to <package>/dist/chart.js; the UMD bundle sits beside it.
  const esmUrl = new URL(import.meta.resolve("chart.js"));
  return decodeURIComponent(new URL("./chart.umd.min.js", esmUrl).pathname);
}

/** Where the vendored copy lives. */
export const VENDORED_CHART_UMD = new URL("./vendor/chart.umd.min.js", import.meta.url);

if (import.meta.main) {
  await Deno.mkdir(new URL("./vendor/", import.meta.url), { recursive: true });
  await Deno.copyFile(installedChartUmdPath(), VENDORED_CHART_UMD);
  console.log(`wrote ${VENDORED_CHART_UMD.pathname} (chart.js ${Chart.version})`);
}
