/**
 * @module
 * The live dashboard's steering controls in chromium: `loadlab attack --dashboard` against the built-in
 * target app, its printed URL (with the run's token) opened; a click pauses and resumes, a rate typed and
 * set raises the live req/s, a rate out of range shows the endpoint's reason and changes nothing, Stop
 * ends the run. results.json records the changes (by the dashboard) and the run is flagged steered.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ResultsFile } from "../results/mod.ts";
import { runVerdict } from "../results/conclude/run_verdict.ts";
import { createTargetApp } from "../targets/app/app.ts";
import { requireProgram, withTempDir } from "./helpers.ts";
import { startLoadlab } from "./background.ts";
import { openPage } from "./browser.ts";

Deno.test({
  name: "dashboard controls in chromium: pause, resume, set a rate (seen live), a refused rate, stop",
  ignore: !requireProgram("chromium"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const app = createTargetApp();
    const target = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => app.fetch(req));
    await withTempDir(async (dir) => {
      const results = join(dir, "results.json");
      const bg = await startLoadlab(
        [
          "attack",
          `http://127.0.0.1:${target.addr.port}/json`,
          "-R",
          "10",
          "-d",
          "40s",
          "-q",
          "--dashboard",
          "-o",
          results,
        ],
        /dashboard: (http:\/\/\S+)/,
      );
      try {
        const visit = await openPage(bg.url, async (page) => {
          const steer = (attr: string) =>
            page.evaluate((a) => document.getElementById("steer")!.dataset[a], attr);
          await page.waitForFunction(() =>
            /: running;/.test(document.getElementById("steer-status")?.textContent ?? "")
          );
          const model = await steer("model");
          await page.click("#steer-pause");
          await page.waitForFunction(() => document.getElementById("steer")!.dataset.paused === "true");
          const pausedLabel = await page.textContent("#steer-pause");
          await page.waitForTimeout(800);
          await page.click("#steer-pause");
          await page.waitForFunction(() => document.getElementById("steer")!.dataset.paused === "false");
          await page.fill("#steer-rate", "120");
          await page.click("#steer-rate-set");
          await page.waitForFunction(() => document.getElementById("steer")!.dataset.changes === "3");
          // The live numbers follow: req/s well above the planned 10/s.
          await page.waitForFunction(
            () => {
              const m = /([\d.,]+) req\/s/.exec(document.getElementById("live-numbers")?.textContent ?? "");
              return m !== null && Number(m[1].replace(/,/g, "")) > 40;
            },
            null,
            { timeout: 30_000 },
          );
          await page.fill("#steer-rate", "-3");
          await page.click("#steer-rate-set");
          await page.waitForFunction(() =>
            /refused \(400\)/.test(document.getElementById("steer-status")!.textContent!)
          );
          const refused = await page.textContent("#steer-status");
          // The live timeline marks the three changes at their instants.
          const marks = await page.evaluate(() => document.getElementById("live")!.dataset.marks);
          const changesAfterRefusal = await steer("changes");
          await page.click("#steer-stop");
          await page.waitForFunction(() => document.documentElement.dataset.live === "ended", null, {
            timeout: 30_000,
          });
          return { model, pausedLabel, refused, changesAfterRefusal, marks };
        }, { ready: "#steer" });
        // The refused change is the browser's one complaint: its 400 answer.
        assert.deepEqual(visit.problems.filter((p) => !/status of 400/.test(p)), []);
        const v = visit.value;
        assert.equal(v.model, "rate");
        assert.equal(v.pausedLabel, "Resume");
        assert.match(v.refused ?? "", /ratePerSec must be a number > 0/);
        assert.equal(v.changesAfterRefusal, "3", "a refused change changes nothing");
        assert.equal(v.marks, "3");
      } finally {
        const end = await bg.done;
        assert.equal(end.code, 0, end.stderr);
        await target.shutdown();
      }
      const file: ResultsFile = JSON.parse(await Deno.readTextFile(results));
      const [run] = file.runs;
      assert.deepEqual(run.steering!.map((c) => [c.action, c.by]), [
        ["pause", "dashboard"],
        ["resume", "dashboard"],
        ["rate", "dashboard"],
        ["stop", "dashboard"],
      ]);
      assert.ok(run.durationSec < 35, `stopped early: ${run.durationSec} s`);
      assert.ok(runVerdict(run).flags.some((f) => f.kind === "steered"), runVerdict(run).label);
    });
  },
});
