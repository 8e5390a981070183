/// <reference lib="dom" />
/**
 * @module
 * report.html of a results file whose numbers are huge, opened in chromium: a corrupt or hostile file may
 * hold 1e308 wherever a count, a rate or a latency belongs, and the page must show it compactly (exponent
 * form, as the terminal does) and never spell it out in hundreds of digits, nor show "Infinity" or "NaN" for
 * what the page derives from it. Every number of a real run that the schema still accepts as huge is set to
 * 1e308, -1e308 or 1e20 (one page per value); the text nodes and the charts' axis labels are read back.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseResultsFile } from "../results/mod.ts";
import { formatExponent } from "../results/text_format.ts";
import { writeReport } from "../report/html/render.ts";
import { openReport } from "./browser.ts";
import { requireProgram, withTempDir } from "./helpers.ts";

/** A real run of a 3:1 mix of `/json` and `/sleep?ms=20` against the built-in target (200 requests). */
const FIXTURE = JSON.parse(
  await Deno.readTextFile(new URL("./fixtures/results_v3_endpoints.json", import.meta.url)),
);

type Path = Array<string | number>;

/** The paths of every number in `value`; the encoded histogram is base64 text, not a number a reader sees. */
function numberPaths(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  if (typeof value === "number") out.push(path);
  else if (Array.isArray(value)) value.forEach((item, i) => numberPaths(item, [...path, i], out));
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key !== "histogramEncoded") numberPaths(item, [...path, key], out);
    }
  }
  return out;
}

/** The fixture with every number set to `value` where the file still reads with it; how many took it. */
function withHugeNumbers(value: number): { data: unknown; changed: number } {
  const data = structuredClone(FIXTURE);
  let changed = 0;
  for (const path of numberPaths(data)) {
    const parent = path.slice(0, -1).reduce((at, key) => at[key], data);
    const key = path[path.length - 1];
    const old = parent[key];
    parent[key] = value;
    if (parseResultsFile(data).ok) changed++;
    else parent[key] = old;
  }
  return { data, changed };
}

/** Whether `text` holds a run of more than 20 digits (thousands separators allowed) or a non-finite word. */
function unreadable(text: string): boolean {
  const longRun = (text.match(/\d[\d,]*/g) ?? []).some((run) => run.replace(/,/g, "").length > 20);
  return longRun || /Infinity|\bNaN\b/.test(text);
}

/** Every text the page shows: its text nodes outside scripts, titles, and each chart's axis tick labels. */
function shownTexts(): string[] {
  const out: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const tag = node.parentElement?.tagName;
    if (tag !== "SCRIPT" && tag !== "STYLE" && tag !== "NOSCRIPT") out.push(node.textContent ?? "");
  }
  for (const el of document.querySelectorAll("[title], [aria-label]")) {
    out.push(el.getAttribute("title") ?? "", el.getAttribute("aria-label") ?? "");
  }
  // deno-lint-ignore no-explicit-any
  for (const chart of Object.values((globalThis as any).Chart.instances) as any[]) {
    for (const scale of Object.values(chart.scales) as Array<{ ticks: Array<{ label: unknown }> }>) {
      out.push(...scale.ticks.map((t) => String(t.label)));
    }
  }
  return out;
}

for (const value of [1e308, -1e308, 1e20]) {
  Deno.test({
    name: `report.html of a results file whose numbers are ${value} shows them compactly in chromium`,
    ignore: !requireProgram("chromium"),
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const { data, changed } = withHugeNumbers(value);
      assert.ok(changed > 50, `only ${changed} fields took ${value}`);
      const parsed = parseResultsFile(data);
      assert.ok(parsed.ok);
      await withTempDir(async (dir) => {
        const path = join(dir, "report.html");
        await writeReport(path, parsed.results);
        const visit = await openReport(path, (page) => page.evaluate(shownTexts));
        const bad = [...new Set(visit.value.filter(unreadable))].map((t) => t.slice(0, 120));
        assert.deepEqual(bad, [], `texts that spell out ${value} or a non-finite number`);
        const exponent = formatExponent(value);
        assert.ok(visit.value.some((t) => t.includes(exponent)), `${exponent} is shown nowhere`);
        assert.deepEqual(visit.problems, []);
      });
    },
  });
}
