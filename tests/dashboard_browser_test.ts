/**
 * @module
 * `loadlab run --dashboard` end to end in chromium: a short two-run experiment opened while it runs.
 * The first run is flagged (one connection asked for 300/s of 20 ms requests) and its verdict badge is
 * in the overview while the second run is still under way.
 * The live timeline's point count grows between two looks (the target's CPU drawn beside it), the run
 * counter reaches 2 of 2 with the first run already in the overview, and once the experiment ends the
 * page's report is the same DOM as report.html's; no console or page errors, and the experiment's
 * hostile description stays text. Meanwhile a second client asks for the stream and never reads it:
 * the runs still end within their duration plus the graceful stop, and the server's queue for any
 * client stays within its bound (`/stats`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { ResultsFile } from "../results/mod.ts";
import type { HubStats } from "../cli/dashboard/server.ts";
import { runVerdict } from "../results/conclude/run_verdict.ts";
import { HOSTILE_IMG, HOSTILE_SCRIPT } from "./fixtures/make_results.ts";
import { requireProgram, withTempDir } from "./helpers.ts";
import { startLoadlab } from "./background.ts";
import { openPage, openReport } from "./browser.ts";

const DURATION_SEC = 3;
const GRACEFUL_STOP_SEC = 1;

const EXPERIMENT = `
name: live-two
description: ${JSON.stringify(`hostile ${HOSTILE_SCRIPT} ${HOSTILE_IMG}`)}
targets:
  plain: { kind: builtin }
loads:
  first: { model: rate, rate: 300, maxConnections: 1, duration: ${DURATION_SEC}s, gracefulStop: ${GRACEFUL_STOP_SEC}s, requests: ["/sleep?ms=20"] }
  second: { model: connections, connections: 2, duration: ${DURATION_SEC}s, gracefulStop: ${GRACEFUL_STOP_SEC}s, requests: [/json] }
`;

/** The live panel's run, total and point count. */
function livePanel(page: Page) {
  return page.evaluate(() => {
    const el = document.getElementById("live");
    return {
      run: el?.dataset.run,
      total: el?.dataset.total,
      points: Number(el?.dataset.points ?? 0),
      charts: el?.querySelectorAll("figure:not([hidden]) canvas").length ?? 0,
      numbers: document.getElementById("live-numbers")?.textContent ?? "",
    };
  });
}

/** A client that asks for the stream and never reads a byte of it. */
async function stuckClient(url: string): Promise<Deno.TcpConn> {
  const { hostname, port } = new URL(url);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  await conn.write(new TextEncoder().encode(`GET /events HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`));
  return conn;
}

/** Polls `/stats` until the server is gone; resolves with the last answer that had the stuck client. */
async function watchStats(url: string): Promise<HubStats[]> {
  const seen: HubStats[] = [];
  while (true) {
    try {
      seen.push(await (await fetch(new URL("stats", url))).json());
    } catch {
      return seen;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

Deno.test({
  name:
    "run --dashboard: grows live in chromium, reaches run 2 of 2, ends as report.html; a stuck client stalls nothing",
  ignore: !requireProgram("chromium"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(join(dir, "exp.yaml"), EXPERIMENT);
      const out = join(dir, "out");
      const run = await startLoadlab(
        ["run", join(dir, "exp.yaml"), "--out-dir", out, "--dashboard"],
        /dashboard: (http:\/\/\S+)/,
      );
      const stuck = await stuckClient(run.url);
      const stats = watchStats(run.url);
      try {
        const visit = await openPage(run.url, async (page) => {
          await page.waitForFunction(() => Number(document.getElementById("live")?.dataset.points) >= 2);
          const first = await livePanel(page);
          await page.waitForFunction(
            (look) => {
              const el = document.getElementById("live")!;
              return el.dataset.run !== look.run || Number(el.dataset.points) > look.points;
            },
            first,
          );
          const second = await livePanel(page);
          await page.waitForFunction(() => document.getElementById("live")?.dataset.run === "2", null, {
            timeout: 60_000,
          });
          const last = await livePanel(page);
          // The first run's snapshot came before the second run started: the overview holds it.
          await page.waitForSelector("#overview tbody tr");
          const midRows = await page.evaluate(() => document.querySelectorAll("#overview tbody tr").length);
          // The first run asked one connection for 300/s of 20 ms requests: flagged, and its badge is
          // on the page while the second run is still under way.
          const midBadge = await page.evaluate(() => ({
            badge: document.querySelector("#overview tbody tr .badge.flag")?.textContent ?? null,
            live: document.documentElement.dataset.live ?? "",
          }));
          await page.waitForFunction(() => document.documentElement.dataset.live === "ended", null, {
            timeout: 60_000,
          });
          const end = await page.evaluate(() => ({
            app: document.getElementById("app")!.innerHTML,
            live: document.getElementById("live") !== null,
            title: document.title,
            imgs: document.querySelectorAll("img").length,
            lead: document.querySelector("header .lead")?.textContent ?? "",
          }));
          return { first, second, last, midRows, midBadge, end };
        }, { ready: "#live" });
        const result = await run.done;
        assert.equal(result.code, 0, result.stderr);
        assert.deepEqual(visit.problems, []);
        const { first, second, last, midRows, midBadge, end } = visit.value;
        assert.equal(second.run, first.run, "both looks in one run");
        assert.ok(second.points > first.points, `${first.points} -> ${second.points} points`);
        assert.equal(second.charts, 2, "the timeline and the target's CPU");
        assert.match(second.numbers, /% CPU, [\d.,]+ MiB/);
        assert.deepEqual([last.run, last.total], ["2", "2"]);
        assert.equal(midRows, 1, "the overview fills run by run");
        assert.notEqual(midBadge.live, "ended", "looked at while the experiment ran");
        assert.equal(end.live, false, "the live panel is gone at the end");
        assert.ok(!end.title.includes("pwned") && end.imgs === 0);
        assert.ok(end.lead.includes(HOSTILE_SCRIPT) && end.lead.includes(HOSTILE_IMG), end.lead);
        const report = await openReport(
          join(out, "report.html"),
          (page) => page.evaluate(() => document.getElementById("app")!.innerHTML),
        );
        assert.deepEqual(report.problems, []);
        assert.ok(report.value === end.app, "the ended dashboard shows report.html's page");
        const results: ResultsFile = JSON.parse(await Deno.readTextFile(join(out, "results.json")));
        assert.equal(results.runs.length, 2);
        const flagged = runVerdict(results.runs[0]);
        assert.ok(!flagged.ok, "one connection against 300/s of 20 ms requests is flagged");
        assert.equal(midBadge.badge, flagged.label, "the flagged run's badge, shown mid-experiment");
        for (const r of results.runs) {
          assert.ok(r.durationSec <= DURATION_SEC + GRACEFUL_STOP_SEC + 0.5, `${r.name}: ${r.durationSec} s`);
        }
        const polled = await stats;
        assert.ok(polled.length > 0, "the stats were read while the runs went");
        for (const s of polled) assert.ok(s.maxQueuedBytes <= s.limitBytes, JSON.stringify(s));
        assert.ok(polled.some((s) => s.clients >= 2), "the stuck client and the page were both connected");
      } finally {
        stuck.close();
        try {
          run.child.kill("SIGKILL");
        } catch { /* ended */ }
        await run.done;
      }
    });
  },
});
