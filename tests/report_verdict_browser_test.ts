/**
 * The run verdict in a real browser: chromium opens the report of cpu-sleep `--quick` as a new user saw
 * it (a run at 20,000/s that answered 94 and dropped 29,839 sends, a generator-bound run whose
 * `p99<100ms` gate passed, a `success >= 99%` gate at 73.33%) and the test checks what a reader sees
 * first: the findings block naming the flagged runs and the expected directions, the dropped share and
 * the verdict badge beside "success 100%" in the overview, and each gate's actual in its unit with the
 * flag of its run; the sweep table lists the same point with its requested, sent and dropped sends.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeReport } from "../report/html/render.ts";
import { openPage } from "./browser.ts";
import { makeCpuSleepQuick, makeSeed000 } from "./fixtures/make_results.ts";
import { requireProgram } from "./helpers.ts";

Deno.test({
  name: "report.html shows the dropped share, the verdict badges and the findings block in chromium",
  ignore: !requireProgram("chromium"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "loadlab_verdict_browser_" });
    const results = makeCpuSleepQuick();
    const path = join(dir, "report.html");
    await writeReport(path, results);
    try {
      const visit = await openPage(`file://${path}`, async (page) => {
        // The findings come right after the header, before the overview.
        const order = await page.evaluate(() =>
          [...document.querySelectorAll("#app > section")].map((s) => s.id)
        );
        assert.ok(
          order.indexOf("findings") >= 0 && order.indexOf("findings") < order.indexOf("overview"),
          `${order}`,
        );
        const findings = await page.textContent("#findings");
        assert.match(findings!, /3 of 4 runs flagged/);
        assert.match(findings!, /single\/cpuTime\/query\.ms=10 \(dropped 99\.7%\)/);
        assert.match(
          findings!,
          /Expected: cluster's req\/s higher than single's at load cpuTime.*not reproduced here/,
        );
        assert.match(findings!, /flagged runs, and the expected directions\./);

        const dropped = await page.evaluate(() => {
          const row = [...document.querySelectorAll("#overview tbody tr")].find((tr) =>
            tr.children[1].textContent === "single/cpuTime/query.ms=10"
          )!;
          return [...row.children].map((td) => td.textContent ?? "");
        });
        // verdict, model, n, requested/s, sent, dropped (share), achieved req/s ... success.
        assert.equal(dropped[2], "dropped 99.7%");
        assert.equal(dropped[5], "20,000");
        assert.equal(dropped[7], "29,839 (99.69%)");
        assert.equal(dropped[15], "100.00%");

        // The sweep table lists the same point with what was asked and sent beside what came back.
        const point = await page.evaluate(() => {
          const row = [...document.querySelectorAll("#sweeps table.sweep-points tbody tr")].find((tr) =>
            tr.children[0].textContent?.startsWith("single/cpuTime") &&
            tr.children[1].textContent === "query.ms=10"
          )!;
          return [...row.children].map((td) => td.textContent ?? "");
        });
        // sweep, at, verdict, requested/s, sent, dropped (share), achieved req/s, p99.
        assert.deepEqual(point.slice(2, 6), ["dropped 99.7%", "20,000", "94", "29,839 (99.69%)"]);
        assert.ok(
          await page.$("#sweeps table.sweep-points tbody tr td .badge.flag"),
          "the sweep table draws the verdict as the overview's badge",
        );

        const gates = await page.$$eval("#thresholds li", (lis) => lis.map((li) => li.textContent ?? ""));
        assert.ok(
          gates.some((g) => /p99<100ms passed .*actual 25\.61 ms on a generator-bound run/.test(g)),
          `${gates}`,
        );
        assert.ok(
          // The fixture's run answered 22% of its requests with a 503: its verdict says so.
          gates.some((g) =>
            /success >= 99% failed .*actual 73\.33% on a dropped 99\.7%, server errors 22% run/.test(g)
          ),
          `${gates}`,
        );
      });
      assert.deepEqual(visit.problems, []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a file without expected directions (a plain attack) has a findings block that names none",
  ignore: !requireProgram("chromium"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "loadlab_findings_attack_" });
    const results = makeSeed000(1, 5);
    results.runs = results.runs.filter((r) => r.name === "redis-cache/baseline#0");
    const path = join(dir, "report.html");
    await writeReport(path, results);
    try {
      const visit = await openPage(`file://${path}`, (page) => page.textContent("#findings"));
      assert.match(visit.value!, /flagged runs\./);
      assert.doesNotMatch(visit.value!, /expect|seed/i);
      assert.deepEqual(visit.problems, []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
