import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { parseResultsFile } from "../results/mod.ts";
import { endpointRows, MAX_SHOWN_ENDPOINTS } from "./endpoint_rows.ts";
import { endpointLines, MAX_TERMINAL_ENDPOINTS } from "./terminal/endpoints.ts";
import { endpointMarkdown } from "./ci/summary.ts";
import { renderJunit, renderMarkdownSummary } from "./ci/summary.ts";
import { pageEndpoints } from "./html/page/run.ts";
import { renderSummary } from "./terminal/summary.ts";
import { renderReport } from "./html/render.ts";
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

Deno.test("endpoints are listed busiest first in the terminal, slowest p99 first in the markdown and the page", async () => {
  const results = await fixture();
  const run = results.runs[0];
  assertEquals(endpointRows(run).map((r) => [r.name, r.requests]), [["GET /sleep?ms=20", 50], [
    "GET /json",
    150,
  ]]);
  const lines = endpointLines(run);
  // Heading, column header, two rows, the note on the p99 of 50 responses.
  assertEquals(lines.length, 5);
  ok(lines[2].startsWith("  GET /json  ") && lines[3].startsWith("  GET /sleep?ms=20"), lines.join("\n"));
  ok(renderSummary(run).includes(lines.slice(1, 4).join("\n")));
  const md = renderMarkdownSummary(results);
  ok(md.includes("### Endpoints of attack (slowest p99 first)"), md);
  ok(/\| GET \/sleep\?ms=20 \| 50 \|/.test(md), md);
  assertEquals(endpointMarkdown([{ ...run, endpoints: run.endpoints!.slice(0, 1) }], (t) => t), []);
  const page = pageEndpoints(run).endpoints;
  assertEquals(page.map((e) => e.name), ["GET /sleep?ms=20", "GET /json"]);
  ok(page[0].percentiles.length > 10 && page[0].percentiles.every(([, ms]) => ms >= 20));
  // A single-endpoint run prints no block: its numbers are the run's.
  assertEquals(endpointLines({ ...run, endpoints: run.endpoints!.slice(0, 1) }), []);
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
  const lines = endpointLines({ ...run, endpoints });
  assertEquals(lines.filter((l) => l.includes("pooled")).length, 1);
});

Deno.test("after a warm-up cut the endpoints, not cut, say they include it", async () => {
  const results = await fixture();
  const run = results.runs[0];
  const cut = cutWarmup(run, run.intervals[1].startMs);
  ok(cut.warmupAuto && cut.endpoints!.every((e) => e.warmupIncluded));
  ok(endpointLines(cut).some((l) => l.includes("include the warm-up")), endpointLines(cut).join("\n"));
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
  assertEquals(pageEndpoints(tagged).endpoints.map((e) => e.name).sort(), [
    "same {kind:a, tier:db}",
    "same {kind:b}",
  ]);
});

/** The fixture's run with `n` endpoints: endpoint i has i+1 requests and a p99 that falls with i. */
async function manyEndpoints(n: number) {
  const results = await fixture();
  const run = results.runs[0];
  const e = run.endpoints![0];
  const endpoints = Array.from({ length: n }, (_, i) => {
    const scale = (n - i) / n;
    const latencyMs = Object.fromEntries(
      Object.entries(e.latencyMs!).map(([k, v]) => [k, Number(v) * scale]),
    );
    return { ...e, name: `GET /items/${i}`, requests: i + 1, latencyMs } as typeof e;
  });
  return { ...results, runs: [{ ...run, endpoints }] };
}

Deno.test("a run of very many endpoints: every printer shows the slowest and the busiest, and says how many more", async () => {
  const n = 3_000;
  const results = await manyEndpoints(n);
  const run = results.runs[0];
  const half = MAX_SHOWN_ENDPOINTS / 2;
  const more = `${(n - MAX_SHOWN_ENDPOINTS).toLocaleString("en-US")} more endpoints not shown (of ${
    n.toLocaleString("en-US")
  }; shown: the ${half} slowest p99, then the ${half} busiest of the rest); results.json lists every one (runs[].endpoints)`;
  const page = pageEndpoints(run);
  assertEquals(page.endpoints.length, MAX_SHOWN_ENDPOINTS);
  assertEquals(page.omitted, more);
  // The slowest (the first ones) and the busiest (the last ones), slowest p99 first.
  assertEquals(page.endpoints[0].name, "GET /items/0");
  assertEquals(page.endpoints.at(-1)!.name, `GET /items/${n - 1}`);
  assertEquals(page.endpoints.filter((e) => e.requests > n - half).length, half);
  // The terminal shows the busiest few and counts the rest.
  const lines = endpointLines(run);
  assertEquals(lines.length, 2 + MAX_TERMINAL_ENDPOINTS + 1);
  assertEquals(lines[2].trim().split(/ {2,}/).slice(0, 2), [`GET /items/${n - 1}`, "3,000"]);
  assertEquals(
    lines.at(-1),
    `  (${(n - MAX_TERMINAL_ENDPOINTS).toLocaleString("en-US")} more endpoints: see report.html)`,
  );
  const md = renderMarkdownSummary(results);
  assertEquals(md.split("\n").filter((l) => l.startsWith("| GET /items/")).length, MAX_SHOWN_ENDPOINTS);
  ok(md.includes(more.replace("[]", "\\[\\]")), md.slice(-2000));
  const junit = renderJunit({
    ...results,
    thresholds: [{ expression: "p99<1s", run: "attack", actual: 1, ok: true }],
  });
  assertEquals(junit.split('name="loadlab.endpoint ').length - 1, MAX_SHOWN_ENDPOINTS);
  ok(junit.includes(`<property name="loadlab.endpoints omitted" value="${more}"/>`));
  // The page of 3,000 endpoints is the size of the page of the 100 it shows, not 30 times it.
  const html = renderReport(results);
  ok(html.includes(JSON.stringify(more).slice(1, -1)));
  const shownOnly = renderReport(await manyEndpoints(MAX_SHOWN_ENDPOINTS));
  ok(html.length < shownOnly.length + 10_000, `${html.length} bytes against ${shownOnly.length}`);
});

Deno.test("the slowest and the busiest being the same endpoints, printers still show as many as they can", async () => {
  const run = (await fixture()).runs[0];
  const endpoints = Array.from(
    { length: 300 },
    (_, i) => ({ ...run.endpoints![0], name: `GET /items/${i}` }),
  );
  const page = pageEndpoints({ ...run, endpoints });
  assertEquals(page.endpoints.length, MAX_SHOWN_ENDPOINTS);
  ok(page.omitted.startsWith("200 more endpoints not shown (of 300;"), page.omitted);
});

Deno.test("as many endpoints as the page shows: whole there and in markdown; the terminal counts the rest", async () => {
  const results = await manyEndpoints(MAX_SHOWN_ENDPOINTS);
  const run = results.runs[0];
  assertEquals(pageEndpoints(run), { endpoints: pageEndpoints(run).endpoints, omitted: "" });
  assertEquals(pageEndpoints(run).endpoints.length, MAX_SHOWN_ENDPOINTS);
  ok(
    endpointLines(run).includes(
      `  (${MAX_SHOWN_ENDPOINTS - MAX_TERMINAL_ENDPOINTS} more endpoints: see report.html)`,
    ),
  );
  ok(!renderMarkdownSummary(results).includes("more endpoint"));
});

Deno.test("an endpoint's calls answered with a gRPC status other than OK are failed statuses", async () => {
  const run = (await fixture()).runs[0];
  const grpc = run.endpoints!.map((e, i) =>
    i === 0 ? { ...e, statusCodes: { "200": e.requests - 10, "grpc UNAVAILABLE": 10 } } : e
  );
  const row = endpointRows({ ...run, endpoints: grpc }).find((r) => r.name === grpc[0].name);
  assertEquals(row?.non2xx, 10);
});
