import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  formatBytes,
  formatCount,
  formatDurationMs,
  formatEta,
  formatExponent,
  formatFixed,
  formatNumber,
  formatPercent,
  formatPercentile,
} from "./text_format.ts";
import { formatThresholdActual } from "./thresholds/text.ts";

Deno.test("ordinary values keep their digits and units", () => {
  assertEquals(
    [formatCount(12345), formatNumber(4567.891), formatFixed(1234.5, 2), formatPercent(0.995)],
    ["12,345", "4,567.89", "1234.50", "99.50%"],
  );
  assertEquals([formatBytes(1536), formatDurationMs(125_000), formatPercentile(99.9)], [
    "1.50 KiB",
    "2m 05s",
    "99.9%",
  ]);
  assertEquals(formatCount(999_999_999_999_999 - 9), "999,999,999,999,990");
});

Deno.test("a time left reads in whole seconds, at least one, then minutes", () => {
  assertEquals([0, 12_400, 59_400, 65_000].map(formatEta), ["1 s", "12 s", "59 s", "1m 05s"]);
});

Deno.test("a finite huge value prints in exponent form, whichever formatter shows it", () => {
  assertEquals(
    [formatCount(1e308), formatCount(-1e308), formatNumber(1e20), formatFixed(Number.MAX_VALUE, 2)],
    ["1.00e+308", "-1.00e+308", "1.00e+20", "1.80e+308"],
  );
  // 1e308 * 100 is Infinity: the percent is shifted in the exponent, not multiplied.
  assertEquals([formatPercent(1e308), formatPercentile(1e300)], ["1.00e+310%", "1.00e+300%"]);
  assertEquals([formatBytes(1e308), formatDurationMs(1e308), formatDurationMs(-1e20)], [
    "1.00e+308 B",
    "1.00e+308 ms",
    "-1.00e+20 ms",
  ]);
  assertEquals(formatExponent(1.5e-7, 2), "1.50e-5");
  assertEquals(formatThresholdActual("p99 < 100", 1e20), "1.00e+20 ms");
  assertEquals(formatThresholdActual("requests > 5", 1e308), "1.00e+308");
});

Deno.test("Infinity and NaN are never printed as such", () => {
  const formatters = [
    formatCount,
    formatNumber,
    formatPercent,
    formatPercentile,
    formatBytes,
    formatDurationMs,
  ];
  for (const format of formatters) {
    for (const x of [Infinity, -Infinity, NaN]) assertEquals(format(x), "-", `${format.name}(${x})`);
  }
  assertEquals([formatFixed(NaN, 2), formatExponent(Infinity)], ["-", "-"]);
});
