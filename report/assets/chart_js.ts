/**
 * @module
 * Chart.js (MIT licence, https://www.chartjs.org), inlined into report.html. The package does not export
 * its UMD bundle, so the bundle is vendored byte for byte in `vendor/chart.umd.min.js` (copied by
 * `build_assets.ts`) and read as a text import, which keeps it in the module graph: `deno compile` embeds
 * it and no run reads the npm cache. `chart_js_test.ts` checks it is the installed chart.js.
 */
import umdSource from "./vendor/chart.umd.min.js" with { type: "text" };

/** The bundle's source text. */
export const CHART_JS_SOURCE: string = umdSource;

/** Version of the embedded bundle, from its licence banner (` * Chart.js v4.6.1`). */
export const CHART_JS_VERSION: string = /Chart\.js v(\S+)/.exec(umdSource)?.[1] ?? "unknown";
