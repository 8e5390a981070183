/**
 * End to end in a real browser (chromium through playwright-core): report.html says in its header how
 * many secrets were redacted and of which kinds, shows none of them anywhere on the page, and a run whose
 * caching proxy went without Redis carries the bypass sentence as a warning in its target facts.
 */
import assert from "node:assert/strict";
import { writeReport } from "../report/html/render.ts";
import { openReport } from "./browser.ts";
import { makeSingleAttack } from "./fixtures/make_results.ts";
import { requireProgram, withTempDir } from "./helpers.ts";

const hasChromium = requireProgram("chromium");

Deno.test({
  name:
    "report.html in a browser: the redaction line in the header, no secret on the page, the bypass warning",
  ignore: !hasChromium,
  async fn() {
    await withTempDir(async (dir) => {
      const results = makeSingleAttack();
      const run = results.runs[0];
      run.url = "http://ada:pw-in-url-42@127.0.0.1:8080/json?token=tok-in-query-42";
      run.config = { ...run.config, url: run.url };
      run.targetInfo = { kind: "proxy" };
      run.targetStats = { hits: 700, misses: 100, bypasses: 200 };
      const path = `${dir}/report.html`;
      await writeReport(path, results);
      const { problems, value } = await openReport(path, async (page) => {
        await page.selectOption("#run-picker", run.name);
        return {
          header: await page.textContent("header"),
          bypass: await page.textContent("#cache-bypass"),
          all: await page.evaluate(() => document.documentElement.outerHTML),
        };
      });
      assert.deepEqual(problems, []);
      assert.match(value.header!, /2 secrets redacted: URL password, token query parameter/);
      assert.ok(!/pw-in-url-42|tok-in-query-42/.test(value.all), "no secret anywhere on the page");
      assert.match(
        value.bypass!,
        /^cache bypassed for 200 of 1,000 cacheable requests \(20%\): Redis failed/,
      );
    });
  },
});
