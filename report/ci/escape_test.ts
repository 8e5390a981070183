import assert from "node:assert/strict";
import { makeSeed000 } from "../../tests/fixtures/make_results.ts";
import { escapeMarkdown, escapeXml, renderJunit, renderMarkdownSummary } from "./summary.ts";

/** Text an experiment file or a results file may carry: controls, an escape sequence, bidi, line breaks. */
const HIDDEN = "a\u0001b\u001b[2Jc\u202ed\u2066e\u200bf\u0085run 9/9 fake\u2028g\u2029h\r\ni";

const CONTROL =
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

/** XML 1.0's Char production: what a conforming parser accepts between markup. */
const XML_CHARS = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;

Deno.test("the markdown summary holds no control, bidi or line-separator character from results", () => {
  const results = makeSeed000(1, 5);
  results.experiment.description = HIDDEN;
  results.experiment.baseline = HIDDEN;
  results.thresholds[0].expression = `p99 < 500ms ${HIDDEN}`;
  results.runs[0].name = HIDDEN;
  const md = renderMarkdownSummary(results);
  const bad = md.split("\n").find((l) => CONTROL.test(l));
  assert.equal(bad, undefined, `a line with a hidden character: ${JSON.stringify(bad)}`);
  assert.ok(!/^run 9\/9 fake/m.test(md), "no forged line");
  assert.equal(
    escapeMarkdown(HIDDEN),
    String.raw`a\\u0001b\\u001b\[2Jc\\u202ed\\u2066e\\u200bf\\u0085run 9/9 fake\\u2028g\\u2029h\\r\\ni`,
  );
});

Deno.test("escapeXml gives only characters XML 1.0 holds, and none that hide text", () => {
  const text = `${HIDDEN} ]]> \ud800 x\udc00 \ufffe\uffff \u{1f600} <&>"'`;
  const escaped = escapeXml(text);
  assert.ok(XML_CHARS.test(escaped), JSON.stringify(escaped));
  // Line breaks are XML characters and hide nothing: element content may keep them.
  assert.ok(!CONTROL.test(escaped.replace(/[\t\n\r\u2028\u2029]/g, "")), JSON.stringify(escaped));
  assert.ok(escaped.includes("]]&gt;") && escaped.includes("\u{1f600}"));
  assert.ok(escaped.endsWith("&lt;&amp;&gt;&quot;&apos;"));
});

Deno.test("JUnit from names with hidden characters holds only XML characters", () => {
  const results = makeSeed000(1, 5);
  results.experiment.name = HIDDEN;
  results.runs[0].name = `${HIDDEN}\ud800`;
  results.thresholds[0].run = results.runs[0].name;
  results.thresholds[0].expression = `p99 < 500ms ]]> ${HIDDEN}`;
  const xml = renderJunit(results, { strict: true });
  assert.ok(XML_CHARS.test(xml), "a character XML cannot hold");
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  assert.ok(!/[\u202a-\u202e\u2066-\u2069\u001b]/.test(xml), "a bidi override or escape sequence");
});
