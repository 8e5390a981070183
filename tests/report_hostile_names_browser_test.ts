/**
 * @module
 * report.html from a results file whose every string holds a payload, opened in chromium: a results file
 * may come from another machine or another tool, so `loadlab report` shows whatever text it holds (run,
 * endpoint, flow, step, check, phase, tag and threshold names, error messages, status codes, map keys).
 * Each string the schema accepts gets markup that would run script, a `</script>` and an HTML comment, a
 * template's braces, a `javascript:` URL, quotes, line separators, a bidi override, NUL, ESC and a lone
 * surrogate. The page must build as usual (no console or page error, charts drawn), run none of it, add
 * no element, and show no bidi control that could reorder a line's numbers.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseResultsFile, type ResultsFile } from "../results/mod.ts";
import { resultsFileSchema } from "../results/schema/results.ts";
import { writeReport } from "../report/html/render.ts";
import { blankCanvases, openReport } from "./browser.ts";
import { makeSeed000 } from "./fixtures/make_results.ts";
import { requireProgram } from "./helpers.ts";

const PAYLOAD = `<img src=x onerror="window.__pwned=1"></script><script>window.__pwned=1</script><!--` +
  `\u2028\u2029\u202e\u2066\x00\x1b[31m\ud800 \${x}{{ y }}'" javascript:window.__pwned=1`;
/** Strings that are encodings or dates: a payload there is a different test (a refused file). */
const ENCODED = new Set(["histogramEncoded", "schema", "createdAt", "startedAt"]);

type Path = Array<string | number>;

/** Every string leaf and every object with keys, parents first. */
function places(value: unknown, path: Path = [], out = { leaves: [] as Path[], maps: [] as Path[] }) {
  if (typeof value === "string" && !ENCODED.has(String(path.at(-1)))) out.leaves.push(path);
  else if (Array.isArray(value)) value.forEach((v, i) => places(v, [...path, i], out));
  else if (value !== null && typeof value === "object" && !ENCODED.has(String(path.at(-1)))) {
    if (path.length > 0) out.maps.push(path);
    for (const [k, v] of Object.entries(value)) places(v, [...path, k], out);
  }
  return out;
}

/**
 * `results` with the payload added to every string and one key per object, where the schema still accepts it.
 * The changes go in batches, one parse each, undoing a change an issue lies under: leaves, then objects
 * deepest first, so a renamed key leaves the paths still to visit intact.
 */
function poisoned(results: ResultsFile): ResultsFile {
  const data = structuredClone(results) as unknown as Record<string, unknown>;
  const at = (p: Path) => p.reduce((o: any, k) => o[k], data);
  const put = (p: Path, v: unknown) => at(p.slice(0, -1))[p.at(-1)!] = v;
  /** Puts every change (none inside another) the schema accepts. */
  const putAccepted = (changes: Array<[Path, unknown]>) => {
    const olds = changes.map(([p]) => at(p));
    const undo = (i: number) => put(changes[i][0], olds[i]);
    let left = changes.map((_, i) => i);
    while (left.length > 0) {
      left.forEach((i) => put(...changes[i]));
      const parsed = resultsFileSchema.safeParse(data);
      if (parsed.success) return;
      const refused = parsed.error.issues.map((issue) =>
        left.find((i) => changes[i][0].every((k, j) => String(k) === String(issue.path[j])))
      );
      if (refused.includes(undefined)) {
        // An issue under no change: each change on its own.
        left.forEach(undo);
        for (const i of left) {
          put(...changes[i]);
          if (!resultsFileSchema.safeParse(data).success) undo(i);
        }
        return;
      }
      refused.forEach((i) => undo(i!));
      left = left.filter((i) => !refused.includes(i));
    }
  };
  const { leaves, maps } = places(data);
  putAccepted(leaves.map((p) => [p, at(p) + PAYLOAD]));
  for (const depth of [...new Set(maps.map((p) => p.length))].sort((a, b) => b - a)) {
    putAccepted(
      maps.filter((p) => p.length === depth).flatMap((p): Array<[Path, unknown]> => {
        const entries = Object.entries(at(p));
        if (entries.length === 0) return [];
        return [[p, Object.fromEntries([[entries[0][0] + PAYLOAD, entries[0][1]], ...entries.slice(1)])]];
      }),
    );
  }
  // As `loadlab report` reads it: the schema's defaults filled in.
  const parsed = parseResultsFile(data);
  assert.ok(parsed.ok);
  return parsed.results;
}

/** The seed experiment plus what a flow and a script record: endpoints with tags, steps, checks, phases. */
function withNames(): ResultsFile {
  const results = makeSeed000(1, 5);
  const run = results.runs[0];
  const latency = run.latencyMs;
  run.config.phases = [{ durationMs: 5000, ratePerSec: 10, name: "burst" }] as typeof run.config.phases;
  run.endpoints = [{
    name: "GET /item",
    method: "GET",
    tags: { tier: "db" },
    requests: run.requests,
    errors: { parse: 1 },
    statusCodes: { "200": run.requests },
    bytesRead: 1,
    bytesWritten: 1,
    latencyMs: latency,
    histogramEncoded: run.histogramEncoded,
    intervals: { requests: run.intervals.map((iv) => iv.requests), errors: run.intervals.map(() => 0) },
  }] as typeof run.endpoints;
  run.flows = [{
    name: "browse",
    sessions: 10,
    completed: 9,
    failed: 1,
    sessionMs: latency,
    steps: [{
      label: "GET /item",
      requests: 10,
      errors: 1,
      latencyMs: latency,
      checks: [{ name: "ok", passed: 9, failed: 1 }],
    }],
  }] as typeof run.flows;
  return results;
}

Deno.test({
  name: "a results file with a payload in every string renders, runs none of it and reorders no line",
  ignore: !requireProgram("chromium"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "loadlab_hostile_names_" });
    const results = poisoned(withNames());
    assert.ok(results.runs[0].endpoints![0].name.endsWith(PAYLOAD), "the endpoint's name took the payload");
    assert.ok(results.runs[0].flows![0].steps[0].checks![0].name.endsWith(PAYLOAD), "so did the check's");
    const path = join(dir, "report.html");
    try {
      await writeReport(path, results, { compare: withNames() });
      const visit = await openReport(path, async (page) => {
        await page.evaluate(() => document.querySelectorAll("details").forEach((d) => d.open = true));
        return {
          pwned: await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned),
          added: await page.locator("img, iframe, [onerror], a[href^='javascript']").count(),
          scripts: await page.locator("script").count(),
          canvases: await page.locator("canvas").count(),
          blank: await blankCanvases(page),
          text: await page.evaluate(() => document.title + document.body.innerText),
        };
      });
      assert.deepEqual(visit.problems, []);
      const { pwned, added, scripts, canvases, blank, text } = visit.value;
      assert.deepEqual({ pwned, added, scripts, blank }, {
        pwned: undefined,
        added: 0,
        scripts: 3,
        blank: [],
      });
      assert.ok(canvases >= 6, `${canvases} charts`);
      assert.ok(text.includes("window.__pwned=1</script>"), "the payload is shown as text");
      assert.ok(text.includes("\\u202e"), "a bidi override is shown as its escape");
      assert.doesNotMatch(text, /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
