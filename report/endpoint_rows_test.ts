import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { parseResultsFile } from "../results/mod.ts";
import { endpointRows } from "./endpoint_rows.ts";
import { endpointLines } from "./endpoint_text.ts";
import { endpointMarkdown } from "./endpoint_md.ts";
import { renderJunit, renderMarkdownSummary } from "./ci_summary.ts";
import { pageEndpoints } from "./html/page_endpoints.ts";
import { renderSummary } from "./text.ts";
import { cutWarmup } from "../results/interval_stats.ts";

/** A real run of a 3:1 mix of `/json` and `/sleep?ms=20` against the built-in target (200 requests). */
async function fixture() {
  const json = JSON.parse(
    await Deno.readTextFile(new URL("../tests/fixtures/results_v3_endpoints.json", import.meta.url)),
  );
  const parsed = parseResultsFile(json);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.results;
}

Deno.test("endpoints are listed slowest p99 first in the terminal, the markdown summary and the page", async () => {
  const results = await fixture();
  const run = results.runs[0];
  assertEquals(endpointRows(run).map((r) => [r.name, r.requests]), [["GET /sleep?ms=20", 50], [
    "GET /json",
    150,
  ]]);
  const lines = endpointLines(run, (t) => t);
  assertEquals(lines.length, 3);
  ok(lines[1].startsWith("  GET /sleep?ms=20"), lines[1]);
  ok(renderSummary(run).includes(lines[1]));
  const md = renderMarkdownSummary(results);
  ok(md.includes("### Endpoints of attack (slowest p99 first)"), md);
  ok(/\| GET \/sleep\?ms=20 \| 50 \|/.test(md), md);
  assertEquals(endpointMarkdown([{ ...run, endpoints: run.endpoints!.slice(0, 1) }], (t) => t), []);
  const page = pageEndpoints(run);
  assertEquals(page.map((e) => e.name), ["GET /sleep?ms=20", "GET /json"]);
  ok(page[0].percentiles.length > 10 && page[0].percentiles.every(([, ms]) => ms >= 20));
  // A single-endpoint run prints no block: its numbers are the run's.
  assertEquals(endpointLines({ ...run, endpoints: run.endpoints!.slice(0, 1) }, (t) => t), []);
  const junit = renderJunit({
    ...results,
    thresholds: [{ expression: "p99<1s", run: "attack", actual: 1, ok: true }],
  });
  ok(
    junit.includes('<property name="loadlab.endpoint GET /sleep?ms=20" value="requests 50, failed 0, p50'),
    junit,
  );
});

Deno.test("a name pooled over several requests is said once, beside its row", async () => {
  const run = (await fixture()).runs[0];
  const endpoints = run.endpoints!.map((e, k) => k === 0 ? { ...e, pooledRequests: 2 } : e);
  const lines = endpointLines({ ...run, endpoints }, (t) => t);
  assertEquals(lines.filter((l) => l.includes("pooled")).length, 1);
});

Deno.test("after a warm-up cut the endpoints, not cut, say they include it", async () => {
  const results = await fixture();
  const run = results.runs[0];
  const cut = cutWarmup(run, run.intervals[1].startMs);
  ok(cut.warmupAuto && cut.endpoints!.every((e) => e.warmupIncluded));
  ok(endpointLines(cut, (t) => t)[0].includes("include the warm-up"), endpointLines(cut, (t) => t)[0]);
  ok(renderMarkdownSummary({ ...results, runs: [cut] }).includes("include the warm-up"));
});

Deno.test("endpoints of one name told apart by their tags say the tags, in every printer", async () => {
  const results = await fixture();
  const run = results.runs[0];
  const [a, b] = run.endpoints!;
  const endpoints: typeof run.endpoints = [{ ...a, name: "same", tags: { kind: "a", tier: "db" } }, {
    ...b,
    name: "same",
    tags: { kind: "b" },
  }];
  const tagged = { ...run, endpoints };
  assertEquals(endpointRows(tagged).map((r) => r.name).sort(), ["same {kind:a, tier:db}", "same {kind:b}"]);
  const md = renderMarkdownSummary({ ...results, runs: [tagged] });
  ok(md.includes("| same {kind:a, tier:db} |") && md.includes("| same {kind:b} |"), md);
  const junit = renderJunit({
    ...results,
    runs: [tagged],
    thresholds: [{ expression: "p99<1s", run: "attack", actual: 1, ok: true }],
  });
  ok(junit.includes('name="loadlab.endpoint same {kind:b}"'), junit);
  assertEquals(pageEndpoints(tagged).map((e) => e.name).sort(), ["same {kind:a, tier:db}", "same {kind:b}"]);
});
