/**
 * End-to-end test of report.html in a real browser: Debian's chromium (headless, through
 * playwright-core) opens the page from file:// for a multi-variant experiment with hostile strings, and
 * the test checks what a reader would: no console or page errors (CSP violations included), every chart
 * canvas has drawn pixels, the overview shows the numbers from the results, interaction works, and the
 * payloads neither ran nor added elements. Saves docs/report.png for the README when
 * UPDATE_SCREENSHOTS is set.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { ResultsFile, RunResult } from "../results/mod.ts";
import { writeReport } from "../report/html/render.ts";
import { blankCanvases, openPage } from "./browser.ts";
import { HOSTILE_IMG, makeSeed000 } from "./fixtures/make_results.ts";
import { requireProgram } from "./helpers.ts";

/**
 * Makes `name` the run of a target that died three quarters in: connect and reset errors in its last
 * intervals (by kind), 93% of sends server-bound, and the start-up facts of a current loadlab.
 */
function killTarget(results: ResultsFile, name: string): RunResult {
  const run = results.runs.find((r) => r.name === name)!;
  const killAt = Math.floor(run.intervals.length * 0.75);
  run.intervals = run.intervals.map((iv, i) => {
    const errorKinds: Record<string, number> = i < killAt
      ? {}
      : { connect: 40 + i, reset: i === killAt ? 3 : 0 };
    const errors = Object.values(errorKinds).reduce((a, b) => a + b, 0);
    return { ...iv, errors, errorKinds, serverBoundSends: Math.round(iv.requests * 0.9) };
  });
  const errors = run.intervals.reduce((sum, iv) => sum + iv.errors, 0);
  const reset = 3;
  run.errors = { connect: errors - reset, reset };
  const sends = run.requests + errors + run.droppedSends;
  Object.assign(run, {
    serverBoundSends: Math.round(sends * 0.93),
    serverBound: true,
    generatorBound: false,
    preConnected: 8,
    preConnectEstimateMs: 0.2,
    maxConnectsInFlight: 16,
    generatorWarmupMs: 203,
    transport: "epoll",
  });
  return run;
}

function overviewRow(page: Page, label: string): Promise<string[]> {
  return page.evaluate((name) => {
    const row = [...document.querySelectorAll("#overview tbody tr")].find((tr) =>
      tr.children[1].textContent === name
    );
    return row ? [...row.children].map((td) => td.textContent ?? "") : [];
  }, label);
}

Deno.test({
  name: "report.html renders every chart, the results' numbers and no payload in chromium",
  ignore: !requireProgram("chromium"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "loadlab_browser_" });
    const results = makeSeed000(2, 20);
    killTarget(results, "sweep/rate=5000");
    const path = join(dir, "report.html");
    await writeReport(path, results, { compare: makeSeed000(2, 20, 0.6) });
    let dialogs = 0;
    try {
      const visit = await openPage(`file://${path}`, async (page) => {
        assert.equal(await page.title(), `${results.experiment.name} — loadlab report`);
        const canvases = await page.locator("canvas").count();
        // At least: 3 comparison bars, the percentile overlay, the sweep, and the first run's timeline x4,
        // histogram and HDR curve; experiment sections (variants x loads, phases) add more. None is blank.
        assert.ok(canvases >= 11, `${canvases} charts`);
        assert.deepEqual(await blankCanvases(page), []);

        // The compare view carries the baseline gate's verdicts: two repeats a side show the 67% slower
        // cache beyond noise on the log scale latency is judged on, its interval a ratio's; names as text.
        const gate = await page.textContent("#gate");
        assert.ok(gate!.includes("Verdicts by run group"), String(gate));
        assert.match(
          gate!,
          /worse: [\d.]+ → [\d.]+ ms, \+66\.7% \(geometric mean of the repeats' p\d+s; noise interval \+[\d.]+% to \+[\d.]+%; Welch over 2\+2 repeats\)/,
        );

        // The overview shows the results' own numbers (a run without repeats: no ± part).
        const sweep = results.runs.find((r) => r.name === "sweep/rate=5000")!;
        const cells = await overviewRow(page, "sweep/rate=5000");
        // ✓, run, verdict, model, n, requested/s, sent, dropped, then achieved req/s and latencies.
        assert.equal(cells[2], `server-bound, lost ${sweep.errors.connect!.toLocaleString("en-US")}`);
        assert.equal(cells[5], Math.round(sweep.targetRps!).toLocaleString("en-US"));
        assert.equal(cells[8], Math.round(sweep.rps).toLocaleString("en-US"));
        assert.equal(cells[10], sweep.latencyMs.p50.toFixed(2));
        assert.equal(cells[12], sweep.latencyMs.p99.toFixed(2));

        // Sorting by req/s puts the fastest sweep point first.
        await page.click("#overview th:nth-child(9)");
        await page.click("#overview th:nth-child(9)");
        assert.equal(
          await page.textContent("#overview tbody tr:first-child td:nth-child(2)"),
          "sweep/rate=10000",
        );

        // The hostile run's details (URL, error messages, config) render as text only.
        const hostile = results.runs.find((r) => r.name.includes(HOSTILE_IMG))!;
        await page.selectOption("#run-picker", hostile.name);
        await page.click("#run-body details summary");
        await page.click("#run-body button.toggle");
        assert.deepEqual(await blankCanvases(page), []);
        const bodyText = await page.textContent("#run-body");
        assert.ok(bodyText!.includes("document.title='pwned'"), "payload shown as text");
        assert.equal(await page.title(), `${results.experiment.name} — loadlab report`);
        assert.equal(await page.locator("img, [onerror]").count(), 0);
        assert.equal(await page.locator("script").count(), 3);
        assert.equal(dialogs, 0);

        // The generator's verdict in plain words with its facts, and errors per interval by kind.
        await page.selectOption("#run-picker", "sweep/rate=5000");
        const verdict = await page.textContent("#run-generator .verdict.warn");
        assert.equal(verdict, "Server-bound: 93% of sends waited for a connection the server held");
        const generator = await page.textContent("#run-generator");
        for (
          const fact of ["8 connections at t0", "max connects in flight16", "203.00 ms", "transportepoll"]
        ) {
          assert.ok(generator!.includes(fact), `${fact} in ${generator}`);
        }
        const kinds = await page.evaluate(() => {
          const canvas = document.querySelector('canvas[aria-label="errors per interval by kind"]');
          const chart = (globalThis as any).Chart.getChart(canvas);
          return chart.data.datasets.filter((d: { data: unknown[] }) => d.data.some((p: any) => p.y > 0))
            .map((d: { label: string }) => d.label);
        });
        assert.deepEqual(kinds, ["connect errors", "reset errors", "server-bound sends"]);
        assert.deepEqual(await blankCanvases(page), []);

        await page.selectOption("#run-picker", "redis-cache/high#0");
        assert.deepEqual(await blankCanvases(page), []);
        await page.emulateMedia({ colorScheme: "dark" });
        await page.emulateMedia({ media: "print" });

        // The README picture: the same experiment without the --compare table.
        await writeReport(path, makeSeed000(2, 20));
        await page.emulateMedia({ colorScheme: "light", media: "screen" });
        await page.goto(`file://${path}`);
        await page.waitForSelector("#run-body canvas");
        assert.deepEqual(await blankCanvases(page), []);
        // A test must not change the checkout: the picture is refreshed only when asked for.
        await page.screenshot({
          path: Deno.env.get("UPDATE_SCREENSHOTS") ? "docs/report.png" : join(dir, "report.png"),
          clip: { x: 0, y: 0, width: 1360, height: 1760 },
          fullPage: true,
        });
      }, { ready: "#run-body canvas", setup: (page) => page.on("dialog", (d) => (dialogs++, d.dismiss())) });
      assert.deepEqual(visit.problems, []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
