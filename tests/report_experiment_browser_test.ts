/**
 * End-to-end test of what `loadlab run` adds to report.html, in a real browser (Debian's chromium through
 * playwright-core, as tests/report_browser_test.ts): the per-phase bar charts across variants, a run's
 * phases, flows and target tables, the capacity search with its probes, and the noise rule named in the
 * overview. No console or page errors, no blank chart, hostile strings shown as text only.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeReport } from "../report/html/render.ts";
import { blankCanvases, openPage } from "./browser.ts";
import { makeExperimentResults } from "./fixtures/make_experiment_results.ts";
import { HOSTILE_IMG } from "./fixtures/make_results.ts";
import { requireProgram } from "./helpers.ts";

Deno.test({
  name: "report.html shows phases, flows, target counters, searches and the noise rule in chromium",
  ignore: !requireProgram("chromium"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "loadlab_browser_exp_" });
    const path = join(dir, "report.html");
    await writeReport(path, makeExperimentResults());
    try {
      const visit = await openPage(`file://${path}`, async (page) => {
        // The cache-burst study's bar charts: 4 loads x (mean, p99, success), all drawn.
        assert.equal(await page.locator("#phase-charts canvas").count(), 12);
        const blank = (await blankCanvases(page, "#phase-charts canvas")).length;
        assert.equal(blank, 0);

        assert.match(
          await page.textContent("#overview .note") ?? "",
          /judged by the spread between 2 repeats/,
        );
        assert.ok(
          (await page.textContent("#overview") ?? "").includes("●"),
          "a change beyond noise is marked",
        );

        await page.selectOption("#run-picker", "redis-cache/burst#1");
        assert.equal(await page.locator("#phases tbody tr").count(), 3);
        assert.ok((await page.textContent("#phases") ?? "").includes(HOSTILE_IMG), "phase name as text");
        assert.equal(await page.locator("#flows tbody tr").count(), 4);
        const flows = await page.textContent("#flows") ?? "";
        assert.ok(flows.includes(`check contains ${HOSTILE_IMG}`) && flows.includes("76.9% pass"), flows);
        const target = await page.textContent("#target-info") ?? "";
        assert.ok(target.includes("deno 2.9.6") && target.includes("staleHits"), target);

        const search = await page.textContent("#searches") ?? "";
        assert.ok(search.includes("p99 < 100ms and success >= 99.9%"), search);
        assert.ok(search.includes("6,318 (fails at 7,562)"), search);
        assert.equal(await page.locator("#searches tbody tr").count(), 7);

        assert.equal(await page.locator("img, [onerror]").count(), 0);
      }, { ready: "#run-body canvas" });
      assert.deepEqual(visit.problems, []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
