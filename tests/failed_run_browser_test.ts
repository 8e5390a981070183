/**
 * A run that got no response at all, as a reader of its report sees it in chromium: the overview's
 * verdict badge reads `failed: no response (connect N)` (then generator-bound where a busy machine saturated
 * its worker) with the failure class (never the green `ok`), and its latency cells have no value ("–"),
 * not "0".
 */
import assert from "node:assert/strict";
import { freePort } from "../system/ports.ts";
import { openPage } from "./browser.ts";
import { requireProgram, runLoadlab, withTempDir } from "./helpers.ts";

Deno.test({
  name: "report.html of a run refused every time: a red 'failed' badge and '–' latency cells",
  ignore: !requireProgram("chromium"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withTempDir(async (dir) => {
      const url = `http://127.0.0.1:${freePort()}/`;
      const r = await runLoadlab(["attack", url, "-n", "20", "-c", "2", "-q", "--report", `${dir}/r.html`]);
      assert.equal(r.code, 4, r.stderr);
      const visit = await openPage(`file://${dir}/r.html`, (page) =>
        page.evaluate(() => {
          const row = document.querySelector("#overview tbody tr")!;
          const badge = row.querySelector(".badge")!;
          return {
            badge: badge.textContent,
            cls: badge.className,
            cells: [...row.children].map((td) => td.textContent ?? ""),
          };
        }));
      const { badge, cls, cells } = visit.value;
      // A busy machine may saturate the worker retrying refused connects: the badge then says so too.
      const saturated = "(, generator-bound: load worker saturated in \\d+ of \\d+ intervals)?";
      assert.match(badge ?? "", new RegExp(`^failed: no response \\(connect \\d+\\)${saturated}$`));
      assert.equal(cls, "badge flag failed");
      // ✓, run, verdict, model, n, requested/s, sent, dropped, achieved req/s, then mean, p50, p90, p99,
      // p99.9 and max.
      assert.deepEqual(cells.slice(9, 15), ["–", "–", "–", "–", "–", "–"], `${cells}`);
      assert.deepEqual(visit.problems, []);
    });
  },
});
