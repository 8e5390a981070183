import assert from "node:assert/strict";
import { Chart } from "chart.js";
import { CHART_JS_SOURCE, CHART_JS_VERSION } from "./chart_js.ts";
import { chartModuleSource, installedChartUmdPath } from "./build_assets.ts";

Deno.test("the embedded Chart.js is the installed one (else run report/assets/build_assets.ts)", async () => {
  assert.equal(CHART_JS_VERSION, Chart.version);
  const installed = await Deno.readTextFile(installedChartUmdPath());
  assert.ok(CHART_JS_SOURCE === installed, "chart_js.ts differs from the installed chart.umd.min.js");
  const generated = await Deno.readTextFile(new URL("./chart_js.ts", import.meta.url));
  assert.equal(generated, chartModuleSource(Chart.version, installed));
});
