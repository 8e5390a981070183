import assert from "node:assert/strict";
import {
  HOSTILE_IMG,
  HOSTILE_SCRIPT,
  makeSeed000,
  makeSingleAttack,
} from "../../tests/fixtures/make_results.ts";
import { renderReport } from "./render.ts";
import { renderSiteIndex, renderSiteReport, sitePages } from "./site.ts";
import { siteEntries } from "./site_data.ts";

function three() {
  const hostile = makeSingleAttack();
  hostile.experiment = { ...hostile.experiment, name: `evil ${HOSTILE_SCRIPT}` };
  return [
    { id: "base", results: { ...makeSeed000(2, 5), createdAt: "2026-01-01T00:00:00.000Z" } },
    { id: "cand", results: { ...makeSeed000(2, 5, 0.6), createdAt: "2026-01-02T00:00:00.000Z" } },
    { id: "evil", results: { ...hostile, createdAt: "2026-01-03T00:00:00.000Z" } },
  ];
}

Deno.test("siteEntries: newest first, thresholds counted, req/s per run", () => {
  const entries = siteEntries(three());
  assert.deepEqual(entries.map((e) => e.id), ["evil", "cand", "base"]);
  const base = entries[2];
  assert.equal(base.runs, base.rps.length);
  assert.equal(base.thresholdsPassed + base.thresholdsFailed, three()[0].results.thresholds.length);
});

Deno.test("site pages: the index's script and data are inert; no closing tag from a name survives", () => {
  const html = renderSiteIndex(three());
  assert.equal(html.split("</script>").length - 1, 3, "data, nav and the page script");
  assert.ok(!html.includes(HOSTILE_IMG));
  assert.ok(html.includes("loadlabIndex();"));
  assert.ok(!html.includes("connect-src"));
});

Deno.test("renderSiteReport: report.html plus compares against every other experiment", () => {
  const page = renderSiteReport(three(), "cand");
  const nav = JSON.parse(/id="loadlab-site">(.*?)<\/script>/s.exec(page)![1]);
  assert.deepEqual(Object.keys(nav.compares).sort(), ["base", "evil"]);
  assert.ok(nav.compares.base.length > 0, "runs paired by name");
  assert.equal(nav.compares.evil.length, 0, "no run of the same name");
  assert.equal(nav.root, "../");
  assert.throws(() => renderSiteReport(three(), "nope"));
  assert.deepEqual([...sitePages(three())].map(([p]) => p), [
    "index.html",
    "e/base.html",
    "e/cand.html",
    "e/evil.html",
  ]);
});

Deno.test("renderReport live: connect-src 'self' and the live entry; the plain report allows no connection", () => {
  const results = makeSingleAttack();
  const live = renderReport(results, { live: true });
  assert.match(live, /connect-src &#39;self&#39;/);
  assert.ok(live.includes("loadlabLive();"));
  const plain = renderReport(results);
  assert.ok(!plain.includes("connect-src"));
  assert.ok(plain.includes("loadlabMain();") && !plain.includes("loadlabLive();"));
});

Deno.test("two results of one name are told apart by folder, mode and date; a quick run's ? is explained", async () => {
  const { siteLabel } = await import("./client/site.ts");
  const { noVerdictNote } = await import("./client/sections.ts");
  const { buildPageData } = await import("./page/data.ts");
  const full = makeSeed000(2, 20);
  const quick = makeSeed000(2, 2, 0.6);
  quick.experiment = { ...quick.experiment, quick: true };
  const entries = siteEntries([{ id: "frameworks", results: full }, { id: "frameworks-2", results: quick }]);
  assert.deepEqual(entries.map((e) => [e.id, e.quick]), [["frameworks", false], ["frameworks-2", true]]);
  const labels = entries.map((e) => siteLabel(e));
  assert.notEqual(labels[0], labels[1]);
  assert.match(labels[1], /\(quick, 2025-05-04 10:05, folder frameworks-2\)$/);
  const compared = buildPageData(quick, full);
  const note = noVerdictNote(compared)!;
  assert.match(note, /^\d+ of \d+ changes have no verdict \(\?\).*--quick run/);
  // Full runs are long enough for noise everywhere: only pairs with a generator-bound side go unjudged.
  const fullNote = noVerdictNote(buildPageData(full, makeSeed000(2, 20, 0.6)))!;
  assert.match(fullNote, /: noise not judged: (candidate|baseline) is generator-bound[^;]*\.$/);
  assert.doesNotMatch(fullNote, /quick|batches/);
});
