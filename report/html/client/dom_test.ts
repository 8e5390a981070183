/**
 * The page's number formatters against the terminal's (results/text_format.ts) on a table of values: both
 * switch to exponent form at the same magnitude and print a huge number the same way; the page's sign for
 * a missing value is "–" where the terminal prints "-".
 */
import assert from "node:assert/strict";
import {
  fixedOrDash,
  formatBytes,
  formatCount,
  formatDurationMs,
  formatExponent,
  formatFixed,
  formatNumber,
  isHuge,
} from "../../../results/text_format.ts";
import { fmtBytes, fmtChange, fmtMs, fmtMsBare, fmtNum, fmtPct, isNum } from "./dom.ts";

const HUGE = [1e15, -1e15, 123456789e10, 1e20, -1e20, 1e308, -1e308, Number.MAX_VALUE];
const ORDINARY = [0, 0.5, -3.25, 42, 1234.5678, 999_999_999_999_999, -999_999_999_999_999];
const MISSING = [NaN, Infinity, -Infinity];

Deno.test("a huge number prints in the page as in the terminal, from the same magnitude on", () => {
  for (const x of HUGE) {
    assert.equal(fmtNum(x), formatNumber(x), `${x}`);
    assert.equal(fmtNum(x), formatCount(x), `${x}`);
    assert.equal(fmtMsBare(x), formatExponent(x), `${x}`);
    assert.equal(fmtMs(x), formatDurationMs(x), `${x}`);
    assert.equal(fmtBytes(x), formatBytes(x), `${x}`);
    assert.equal(fmtPct(x), `${formatExponent(x)}%`, `${x}`);
    assert.equal(fmtChange(x), `${x < 0 ? "−" : "+"}${formatExponent(Math.abs(x))}%`, `${x}`);
  }
  for (const x of ORDINARY) {
    assert.ok(!/e[+-]/.test(fmtNum(x) + fmtMsBare(x) + fmtMs(x) + fmtPct(x)), `${x} spelled out`);
  }
});

Deno.test("fixedOrDash is formatFixed with the page's sign for a missing value", () => {
  for (const x of [...HUGE, ...ORDINARY]) {
    for (const digits of [0, 1, 4]) assert.equal(fixedOrDash(x, digits), formatFixed(x, digits), `${x}`);
  }
  for (const x of MISSING) {
    assert.deepEqual([fixedOrDash(x, 2), fmtNum(x), fmtMs(x), fmtBytes(x)], ["–", "–", "–", "–"]);
  }
});

Deno.test("the shared exponent rule runs as the page inlines it: by source text, without its module", () => {
  const script = [isHuge, formatExponent, formatFixed, isNum, fixedOrDash, fmtNum].map(String).join("\n");
  const page = new Function(`${script}\nreturn [fmtNum(1e308), fixedOrDash(-1e20, 2), fmtNum(12345.6)];`);
  assert.deepEqual(page(), ["1.00e+308", "-1.00e+20", "12,346"]);
});
