import assert from "node:assert/strict";
import {
  HOSTILE_IMG,
  HOSTILE_SCRIPT,
  makeLargeExperiment,
  makeSeed000,
} from "../../tests/fixtures/make_results.ts";
import { clientSource, jsonForScript, renderReport } from "./render.ts";
import { parseFailOn } from "../../results/fail_on.ts";
import { CHART_JS_VERSION } from "../assets/chart_js.ts";

const html = renderReport(makeSeed000());

function embeddedData(page: string): any {
  const m = page.match(/<script type="application\/json" id="loadlab-data">([\s\S]*?)<\/script>/);
  assert.ok(m, "data block present");
  return JSON.parse(m[1]);
}

Deno.test("renderReport inlines the results as JSON the page can parse back", () => {
  const data = embeddedData(html);
  const seed = makeSeed000();
  assert.deepEqual(data.runs.length, seed.runs.length);
  assert.deepEqual(data.runs[0].name, seed.runs[0].name);
  assert.deepEqual(data.runs[0].requests, seed.runs[0].requests);
  assert.deepEqual(data.experiment.source, seed.experiment.source);
  assert(html.includes(`Chart.js v${CHART_JS_VERSION}`), "Chart.js is inlined");
});

Deno.test("renderReport references nothing outside the file", () => {
  assert(!/\s(src|href)\s*=\s*["']?(https?:)?\/\//i.test(html), "no external src/href");
  assert(!/<link\b/i.test(html), "no <link> elements");
  assert.deepEqual([...html.matchAll(/<script\b[^>]*\bsrc=/gi)].length, 0);
  assert(!/@import|url\(\s*["']?https?:/i.test(html), "no remote CSS");
});

Deno.test("renderReport sets a CSP that allows nothing external", () => {
  const m = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/);
  assert.ok(m, "CSP meta tag");
  const csp = m[1].replaceAll("&#39;", "'");
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+' 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
  assert(!/unsafe-eval|https?:|\*/.test(csp), csp);
});

Deno.test("hostile strings never appear unescaped in the page", () => {
  assert(!html.includes(HOSTILE_SCRIPT), "script payload escaped");
  assert(!html.includes(HOSTILE_IMG), "img payload escaped");
  // Exactly three script elements close: data, Chart.js, the page script.
  assert.deepEqual([...html.matchAll(/<\/script>/gi)].length, 3);
  assert(html.includes("\\u003c/script>\\u003cscript>document.title='pwned'\\u003c/script>"));
  const data = embeddedData(html);
  assert(data.runs.some((r: { url: string }) => r.url.includes(HOSTILE_SCRIPT)), "payload survives as data");
  assert.match(html, /<title>seed 000: Wiki.js with and without a Redis cache — loadlab report<\/title>/);
});

Deno.test("the title is HTML-escaped", () => {
  const results = makeSeed000(1, 5);
  results.experiment.name = HOSTILE_SCRIPT;
  const page = renderReport(results);
  assert.match(page, /<title>&#60;\/script&#62;&#60;script&#62;document.title=&#39;pwned&#39;/);
});

Deno.test("jsonForScript escapes every '<' and line separators", () => {
  const out = jsonForScript({ a: "</script><!-- \u2028" });
  assert(!out.includes("<"));
  assert.deepEqual(JSON.parse(out), { a: "</script><!-- \u2028" });
});

Deno.test("a bidi control in any text reaches the page as its visible escape, never reordering a line", () => {
  // U+202E in a threshold's expression reversed the rest of its line: "actual: 3.31 ms" read "sm 13.3".
  const results = makeSeed000(1, 5);
  results.experiment.name = "cache\u202e-burst";
  results.thresholds[0].expression = "p99 < 500ms \u202e\u2066\u200f";
  const page = renderReport(results);
  assert(!/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(page), "no bidi control in the page text");
  assert.match(page, /<title>cache\\u202e-burst — loadlab report<\/title>/);
  const data = embeddedData(page);
  assert.equal(data.experiment.name, "cache\\u202e-burst");
  assert.equal(data.thresholds[0].expression, "p99 < 500ms \\u202e\\u2066\\u200f");
});

Deno.test("a 50-run experiment with 250 ms intervals stays within 1.5 MB", () => {
  const page = renderReport(makeLargeExperiment(50, 60));
  const sizeBytes = new TextEncoder().encode(page).length;
  assert(sizeBytes <= 1.5 * 1024 * 1024, `report is ${sizeBytes} bytes`);
  assert.deepEqual(embeddedData(page).runs.length, 50);
});

Deno.test("the comparison view lists matched runs and flags a real change as beyond noise", () => {
  const data = embeddedData(renderReport(makeSeed000(), { compare: makeSeed000(2, 20, 0.6) }));
  const row = data.compare.find((r: { name: string }) => r.name === "redis-cache/high#0");
  assert(row, "matched by name");
  assert(row.cells.p50.changePct > 50, `p50 change ${row.cells.p50.changePct}`);
  assert.deepEqual(row.cells.p50.verdict, "beyond-noise");
  const same = data.compare.find((r: { name: string }) => r.name === "no-cache/high#0");
  assert.deepEqual(same.cells.p50.verdict, "within-noise");
});

Deno.test("the comparison view carries the baseline gate's verdicts by run group, rules applied", () => {
  const page = renderReport(makeSeed000(3, 20, 1.5), {
    compare: makeSeed000(3),
    failOn: [parseFailOn("p50 +10%")],
  });
  type Row = { key: string; metric: string; verdict: string; failed: boolean; text: string };
  const rows: Row[] = embeddedData(page).gate;
  const slower = rows.find((r) => r.key === "redis-cache/high" && r.metric === "p50")!;
  assert.deepEqual([slower.verdict, slower.failed], ["worse", true]);
  assert.match(
    slower.text,
    /^worse: [\d.]+ → [\d.]+ ms, \+\d+\.\d% \(geometric mean of the repeats' p50s; noise interval \+[\d.]+% to \+[\d.]+%; Welch over 3\+3 repeats\); FAILS p50 \+10%$/,
  );
  const same = rows.find((r) => r.key === "no-cache/high" && r.metric === "p50")!;
  assert.deepEqual([same.verdict, same.failed], ["same", false]);
  assert.equal(embeddedData(renderReport(makeSeed000())).gate, null, "no baseline, no verdicts");
});

Deno.test("every value a client module imports is a function the page's script defines", async () => {
  const script = clientSource();
  const dir = new URL("./client/", import.meta.url);
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.name.endsWith(".ts") || entry.name.endsWith("_test.ts")) continue;
    const text = await Deno.readTextFile(new URL(entry.name, dir));
    for (const [, names] of text.matchAll(/^import \{([^}]*)\} from "[^"]+";/gm)) {
      for (const spec of names.split(",").map((s) => s.trim()).filter((s) => s && !s.startsWith("type "))) {
        const local = spec.split(" as ").pop()!;
        assert.match(script, new RegExp(`function\\*? ${local}\\(`), `${entry.name} imports ${local}`);
      }
    }
  }
});
