/**
 * @module
 * `loadlab site` end to end in chromium: over a folder with three results files the index lists three
 * (hostile names and descriptions stay text), the compare picker opens the baseline-vs-candidate view
 * with the choice in the URL, and the `--static` output opens from file:// (index and a comparison)
 * with no console or page errors; the index and a report's header say what each experiment's `--out`
 * metrics outputs delivered.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeResultsFile } from "../results/io.ts";
import type { ResultsFile } from "../results/mod.ts";
import { HOSTILE_IMG, HOSTILE_SCRIPT, makeSeed000, makeSingleAttack } from "./fixtures/make_results.ts";
import { requireProgram, runLoadlab, withTempDir } from "./helpers.ts";
import { startLoadlab } from "./background.ts";
import { openPage } from "./browser.ts";
import { testPool } from "./fixtures/test_pool.ts";

/**
 * Three experiments: a baseline (its metrics all sent), a candidate (slower cache; an OTLP receiver that
 * was down), and a hostile single attack (no `--out`).
 */
async function writeThree(dir: string): Promise<void> {
  const at = (results: ResultsFile, createdAt: string): ResultsFile => ({ ...results, createdAt });
  const out = (sent: number, failed: number): ResultsFile["export"] => [{
    kind: failed ? "otlp" : "prometheus-remote-write",
    url: "http://127.0.0.1:9/v1/metrics",
    intervalsSent: sent,
    intervalsDropped: 0,
    intervalsFailed: failed,
    posts: 3,
    retries: failed ? 9 : 0,
    ...(failed ? { lastError: "Connection refused (os error 111)" } : {}),
  }];
  const hostile = makeSingleAttack();
  hostile.experiment = { ...hostile.experiment, name: `evil ${HOSTILE_SCRIPT}`, description: HOSTILE_IMG };
  for (
    const [folder, results] of [
      ["base", { ...at(makeSeed000(2, 20), "2026-11-01T10:00:00.000Z"), export: out(40, 0) }],
      ["cand", { ...at(makeSeed000(2, 20, 0.6), "2026-11-02T10:00:00.000Z"), export: out(0, 40) }],
      ["nested/evil", at(hostile, "2026-11-03T10:00:00.000Z")],
    ] as const
  ) {
    await Deno.mkdir(join(dir, "out", folder), { recursive: true });
    await writeResultsFile(join(dir, "out", folder, "results.json"), results);
  }
}

/** What the index shows: row names, and whether any payload ran or became markup. */
function readIndex(page: import("playwright-core").Page) {
  return page.evaluate(() => ({
    names: [...document.querySelectorAll("#experiments tbody td.name")].map((td) => td.textContent),
    metricsOut: (() => {
      const column = [...document.querySelectorAll("#experiments thead th")]
        .findIndex((th) => th.textContent?.startsWith("metrics out"));
      return [...document.querySelectorAll("#experiments tbody tr")].map((tr) => ({
        folder: tr.children[1]?.textContent,
        text: tr.children[column]?.textContent,
        title: (tr.children[column] as HTMLElement | undefined)?.title,
      }));
    })(),
    sparklines: document.querySelectorAll("#experiments svg polyline, #experiments svg circle").length,
    title: document.title,
    imgs: document.querySelectorAll("img").length,
  }));
}

/** Both cases at once: each waits on its `loadlab site` and the browser. */
const pool = testPool(2);

pool.test(
  "loadlab site: index of three, compare view from the picker, hostile strings stay text",
  async () => {
    await withTempDir(async (dir) => {
      await writeThree(dir);
      const site = await startLoadlab(["site", join(dir, "out")], /at (http:\/\/\S+)/);
      try {
        const visit = await openPage(site.url, async (page) => {
          const index = await readIndex(page);
          await page.selectOption("#site-baseline", "base");
          await page.selectOption("#site-candidate", "cand");
          await page.click("#site-compare");
          await page.waitForSelector("#compare tbody tr");
          const compare = await page.evaluate(() => ({
            url: location.href,
            heading: document.querySelector("#compare h2")?.textContent ?? "",
            rows: document.querySelectorAll("#compare tbody tr").length,
            baseline: (document.getElementById("site-baseline") as HTMLSelectElement).value,
          }));
          return { index, compare };
        }, { ready: "#experiments tbody tr" });
        assert.deepEqual(visit.problems, []);
        const { index, compare } = visit.value;
        assert.equal(index.names.length, 3);
        assert.ok(index.names.includes(`evil ${HOSTILE_SCRIPT}`), JSON.stringify(index.names));
        assert.equal(index.sparklines, 3);
        assert.equal(index.imgs, 0);
        assert.ok(!index.title.includes("pwned"));
        assert.match(compare.url, /\/e\/cand\.html\?base=base$/);
        assert.match(compare.heading, /Compared with baseline: .*\(2026-11-01 10:00, folder base\)$/);
        assert.ok(compare.rows > 0);
        assert.equal(compare.baseline, "base");
      } finally {
        site.child.kill("SIGTERM");
        await site.done;
      }
    });
  },
  { ignore: !requireProgram("chromium") },
);

pool.test(
  "loadlab site --static: plain files that open from file://, comparison included",
  async () => {
    await withTempDir(async (dir) => {
      await writeThree(dir);
      const out = await runLoadlab(["site", join(dir, "out"), "--static", join(dir, "site")]);
      assert.equal(out.code, 0, out.stderr);
      const index = await openPage(`file://${join(dir, "site", "index.html")}`, readIndex, {
        ready: "#experiments tbody tr",
      });
      assert.deepEqual(index.problems, []);
      assert.equal(index.value.names.length, 3);
      assert.equal(index.value.imgs, 0);
      // What the metrics outputs delivered: all, nothing (qualified), no --out.
      const metricsOut = Object.fromEntries(index.value.metricsOut.map((m) => [m.folder, m]));
      assert.equal(metricsOut.base?.text, "all sent");
      assert.equal(metricsOut.cand?.text, "incomplete: 40 not delivered");
      assert.equal(metricsOut.cand?.title, "otlp: 0 sent, 40 not delivered");
      const evil = index.value.metricsOut.find((m) => m.folder !== "base" && m.folder !== "cand");
      assert.equal(evil?.text, "–", JSON.stringify(index.value.metricsOut));
      const compare = await openPage(
        `file://${join(dir, "site", "e", "cand.html")}?base=base`,
        (page) =>
          page.evaluate(() => ({
            rows: document.querySelectorAll("#compare tbody tr").length,
            metricsOut: [...document.querySelectorAll("header dl.facts dt")]
              .find((dt) => dt.textContent === "metrics out")?.nextElementSibling?.textContent,
          })),
        { ready: "#compare" },
      );
      assert.deepEqual(compare.problems, []);
      assert.ok(compare.value.rows > 0);
      // The report's header says what was sent, to where, and that the receiver's series are incomplete.
      assert.equal(
        compare.value.metricsOut,
        "otlp 0 intervals sent, 0 dropped, 40 failed (last error: Connection refused (os error 111)) to " +
          "http://127.0.0.1:9/v1/metrics — incomplete at the receiver: 40 of 40 not delivered",
      );
    });
  },
  { ignore: !requireProgram("chromium") },
);
