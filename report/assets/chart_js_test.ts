import assert from "node:assert/strict";
import { Chart } from "chart.js";
import { CHART_JS_SOURCE, CHART_JS_VERSION } from "./chart_js.ts";
import { installedChartUmdPath, VENDORED_CHART_UMD } from "../../tools/vendor_chart_js.ts";

Deno.test("the embedded Chart.js is the installed one (else run tools/vendor_chart_js.ts)", async () => {
  assert.equal(CHART_JS_VERSION, Chart.version);
  const installed = await Deno.readFile(installedChartUmdPath());
  assert.deepEqual(await Deno.readFile(VENDORED_CHART_UMD), installed, "vendor/chart.umd.min.js differs");
  assert.ok(CHART_JS_SOURCE === new TextDecoder().decode(installed), "the text import is the bundle as is");
});
