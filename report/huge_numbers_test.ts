/**
 * @module
 * A results file is input: a corrupt or hostile one may hold 1e308 where a count, a rate or a latency
 * belongs. Each number of a real run is set to a huge value in turn, the file is read as `report` reads
 * it, and the terminal summary and the CI markdown must show it compactly (exponent form), never as the
 * hundreds of digits it spells out in full, nor as "Infinity" or "NaN".
 */
import { ok } from "node:assert/strict";
import { parseResultsFile } from "../results/mod.ts";
import { renderMarkdownSummary } from "./ci/summary.ts";
import { renderSummary } from "./terminal/summary.ts";

/** A real run of a 3:1 mix of `/json` and `/sleep?ms=20` against the built-in target (200 requests). */
const FIXTURE = JSON.parse(
  await Deno.readTextFile(new URL("../tests/fixtures/results_v3_endpoints.json", import.meta.url)),
);

/** The paths of the run's numbers; of each array only the first few items, to keep the cases bounded. */
function numberPaths(value: unknown, path: (string | number)[], out: (string | number)[][]): void {
  if (typeof value === "number") out.push(path);
  else if (Array.isArray(value)) value.slice(0, 3).forEach((item, i) => numberPaths(item, [...path, i], out));
  else if (value !== null && typeof value === "object") {
    // The encoded histogram is base64 text, not a number a reader sees.
    for (const [key, item] of Object.entries(value)) {
      if (key !== "histogramEncoded") numberPaths(item, [...path, key], out);
    }
  }
}

/** The fixture with the number at `path` set to `value`. */
function withNumber(path: (string | number)[], value: number): unknown {
  const data = structuredClone(FIXTURE);
  let at = data;
  for (const key of path.slice(0, -1)) at = at[key];
  at[path[path.length - 1]] = value;
  return data;
}

/** A run of more than 20 digits (separators allowed) or a non-finite number spelled out. */
const UNREADABLE = /\d[\d,]{20,}|Infinity|NaN/;

for (const value of [1e308, -1e308, 1e20]) {
  Deno.test(`a results file's ${value} in any field prints compactly in the summary and the markdown`, () => {
    const paths: (string | number)[][] = [];
    numberPaths(FIXTURE.runs[0], ["runs", 0], paths);
    let shown = 0;
    for (const path of paths) {
      const parsed = parseResultsFile(withNumber(path, value));
      if (!parsed.ok) continue; // refused by the schema: never printed
      shown++;
      for (const text of [renderSummary(parsed.results.runs[0]), renderMarkdownSummary(parsed.results)]) {
        const line = text.split("\n").find((l) => UNREADABLE.test(l));
        ok(line === undefined, `${path.join(".")} = ${value}: ${line?.slice(0, 160)}`);
      }
    }
    ok(shown > 50, `only ${shown} fields took ${value}`);
  });
}
