/**
 * @module
 * Chart.js (MIT), vendored as is, a text import: `deno compile` embeds it and no run reads the npm cache.
 */
import umdSource from "./vendor/chart.umd.min.js" with { type: "text" };

export const CHART_JS_SOURCE: string = umdSource;

/** Version of the embedded bundle, from its licence banner (` * Chart.js v4.6.1`). */
export const CHART_JS_VERSION: string = /Chart\.js v(\S+)/.exec(umdSource)?.[1] ?? "unknown";
