/**
 * In a real browser: report.html of a run of two endpoints (a real run of a 3:1 mix of `/json` and
 * `/sleep?ms=20`) shows the endpoints' table, slowest p99 first, and draws their percentile chart, with
 * no error on the page; a run of more endpoints than the page shows says how many more there are.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseResultsFile } from "../results/mod.ts";
import { writeReport } from "../report/html/render.ts";
import type { Page } from "playwright-core";
import { blankCanvases, openReport, type ReportVisit } from "./browser.ts";
import { requireProgram, withTempDir } from "./helpers.ts";

/** A results file of one run with two endpoints, parsed as JSON (each test changes its own copy). */
async function endpointsFixture() {
  return JSON.parse(
    await Deno.readTextFile(new URL("./fixtures/results_v3_endpoints.json", import.meta.url)),
  );
}

/** report.html of results `json`, opened once its endpoints' section is built: what `inspect` reads of it. */
async function visitEndpoints<T>(
  json: unknown,
  inspect: (page: Page) => Promise<T>,
): Promise<ReportVisit<T>> {
  const parsed = parseResultsFile(json);
  assert.ok(parsed.ok);
  let visit: ReportVisit<T> | undefined;
  await withTempDir(async (dir) => {
    const path = join(dir, "report.html");
    await writeReport(path, parsed.results);
    visit = await openReport(path, async (page) => {
      await page.waitForSelector("#run-endpoints");
      return await inspect(page);
    });
  });
  return visit!;
}

Deno.test("report.html: the endpoints' table by p99 and their chart", async () => {
  if (!requireProgram("chromium")) return;
  const visit = await visitEndpoints(await endpointsFixture(), async (page) => ({
    names: await page.$$eval(
      "#run-endpoints tbody tr td:first-child",
      (cells) => cells.map((c) => c.textContent),
    ),
    blank: await blankCanvases(page, "#run-endpoints canvas"),
    charts: await page.$$eval("#run-endpoints canvas", (cs) => cs.length),
  }));
  assert.deepEqual(visit.problems, []);
  assert.deepEqual(visit.value.names, ["GET /sleep?ms=20", "GET /json"]);
  assert.equal(visit.value.charts, 1);
  assert.deepEqual(visit.value.blank, []);
});

Deno.test("report.html: a run of 300 endpoints shows 100 rows and a line saying 200 more are in results.json", async () => {
  if (!requireProgram("chromium")) return;
  const json = await endpointsFixture();
  const e = json.runs[0].endpoints[0];
  json.runs[0].endpoints = Array.from({ length: 300 }, (_, i) => ({ ...e, name: `GET /items/${i}` }));
  const visit = await visitEndpoints(json, async (page) => ({
    rows: await page.$$eval("#run-endpoints tbody tr", (rows) => rows.length),
    notes: await page.$$eval("#run-endpoints p.note", (ps) => ps.map((p) => p.textContent)),
  }));
  assert.deepEqual(visit.problems, []);
  assert.equal(visit.value.rows, 100);
  assert.match(
    visit.value.notes.at(-1) ?? "",
    /^200 more endpoints not shown \(of 300; .*results\.json lists every one/,
  );
});
