/**
 * report.html's charts for a swept variants experiment in chromium (as tests/report_browser_test.ts): the
 * comparison covers every sweep point with req/s beside latency and success, a >2-decade chart starts on a
 * log axis and prints its bars' values, a stalled interval is a gap in the run's latency chart, the run's
 * concurrency is a line beside its latency and req/s, and the
 * header of a --quick run of example apps says what ran and on which runtime. No console or page errors,
 * no blank chart.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeReport } from "../report/html/render.ts";
import { blankCanvases, openReport } from "./browser.ts";
import { makeSweepMatrix } from "./fixtures/make_results.ts";
import { requireProgram } from "./helpers.ts";

/**
 * The sweep matrix as a --quick run whose uncached variant is an example app under Deno's npm compatibility.
 */
function quickSweep() {
  const results = makeSweepMatrix();
  results.experiment.quick = true;
  results.experiment.ranSource = "name: static concurrency\nloads:\n  n: { duration: 5s }\n";
  results.experiment.source = "name: static concurrency\nloads:\n  n: { duration: 30s }\nquick: {}\n";
  for (const run of results.runs) {
    run.targetInfo = run.variant === "uncached"
      ? { kind: "example", runtime: "deno 2.9.6 (npm compat)" }
      : { kind: "builtin", runtime: "deno 2.9.6" };
  }
  return results;
}

Deno.test({
  name: "report.html draws every sweep point, req/s, log axes, bar values and gaps in chromium",
  ignore: !requireProgram("chromium"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "loadlab_charts_" });
    const path = join(dir, "report.html");
    await writeReport(path, quickSweep());
    try {
      const visit = await openReport(path, async (page) => {
        const comparison = await page.evaluate(() =>
          [...document.querySelectorAll("#comparison canvas")].map((c) => {
            const chart = (globalThis as any).Chart.getChart(c);
            return {
              title: c.getAttribute("aria-label"),
              labels: chart.data.labels,
              y: chart.options.scales.y.type,
              plugins: chart.config.plugins.map((p: { id: string }) => p.id),
            };
          })
        );
        assert.deepEqual(comparison.map((c) => c.title), [
          "throughput (req/s)",
          "mean latency (ms)",
          "p99 latency (ms)",
          "success (%)",
        ]);
        for (const c of comparison) {
          assert.deepEqual(c.labels.slice(0, 3), ["concurrency=50", "concurrency=100", "concurrency=200"]);
          assert.ok(c.plugins.includes("loadlabBarValues"), `${c.title} prints its bars' values`);
        }
        assert.equal(comparison[1].y, "logarithmic", "2.5 ms beside 2,900 ms starts on a log axis");
        assert.equal(comparison[3].y, "linear", "success of 100% everywhere stays linear");
        assert.match(await page.textContent("#comparison h2") ?? "", /sweep points/);
        assert.match(await page.textContent("#comparison figcaption") ?? "", /y: log/);

        await page.selectOption("#run-picker", "uncached/N=200#0");
        const p50 = await page.evaluate(() => {
          const canvas = document.querySelector('canvas[aria-label="latency per interval (ms)"]');
          const chart = (globalThis as any).Chart.getChart(canvas);
          return chart.data.datasets[0].data.slice(2, 6).map((p: { y: number | null }) => p.y);
        });
        assert.deepEqual([p50[1], p50[2]], [null, null], "the stalled intervals (3 and 4) are a gap");
        assert.ok(p50[0] > 100 && p50[3] > 100, `their neighbours are drawn: ${p50}`);
        // Concurrency on the right axis beside latency and req/s, shown: this closed run's connections.
        const users = await page.evaluate(() =>
          ["latency per interval (ms)", "throughput per interval"].map((title) => {
            const chart = (globalThis as any).Chart.getChart(
              document.querySelector(`canvas[aria-label="${title}"]`),
            );
            const set = chart.data.datasets.find((d: { yAxisID?: string }) => d.yAxisID === "y2");
            return set &&
              { label: set.label, hidden: set.hidden === true, ys: set.data.map((p: { y: number }) => p.y) };
          })
        );
        for (const u of users) {
          assert.equal(u?.label, "connections", JSON.stringify(users));
          assert.equal(u.hidden, false);
          assert.ok(u.ys.length > 0 && u.ys.every((y: number) => y === u.ys[0]), JSON.stringify(u.ys));
        }
        await page.selectOption("#run-picker", "short");
        assert.match(
          await page.textContent("#run-body") ?? "",
          /too few intervals with responses: \d+ of \d+/,
        );

        const header = await page.textContent("header") ?? "";
        assert.match(header, /--quick/);
        assert.match(header, /uncached: deno 2\.9\.6 \(npm compat\)/);
        assert.match(await page.textContent("#npm-compat") ?? "", /npm install --prefix examples/);
        assert.match(await page.textContent("#experiment-ran summary") ?? "", /as run \(--quick/);
        assert.match(await page.textContent("#experiment-ran pre", { strict: false }) ?? "", /5s/);
        assert.deepEqual(await blankCanvases(page), []);
      });
      assert.deepEqual(visit.problems, []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
