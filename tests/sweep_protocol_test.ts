/**
 * A sweep over words end to end: `loadlab run` with `load.protocol: [http1, h2]` against the built-in
 * target serving TLS (h2 by ALPN), each run recording the protocol it spoke; the terminal lines, the
 * baseline gate (runs paired by their word), the analysis (no knee over categories) and report.html in
 * chromium (the sweep drawn as bars per word in the file's order, no console error). Then protocol beside
 * a streams sweep. Loads are a few dozen requests bounded by a second: these check behaviour, not speed.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { ResultsFile } from "../results/mod.ts";
import { blankCanvases, openReport } from "./browser.ts";
import { requireProgram, runLoadlab, withTempDir } from "./helpers.ts";
import { testPool } from "./fixtures/test_pool.ts";

const EXPERIMENT = `
name: protocols
targets:
  app: { kind: builtin, tls: self-signed }
loads:
  few: { model: count, requests: 24, connections: 2, duration: 1s }
requests: [/json]
interval: 100ms
`;

async function run(dir: string, yaml: string, out: string, extra: string[] = []): Promise<ResultsFile> {
  await Deno.writeTextFile(`${dir}/exp.yaml`, yaml);
  const result = await runLoadlab(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/${out}`, ...extra]);
  assertEquals(result.code, 0, result.stderr + result.stdout);
  await Deno.writeTextFile(`${dir}/${out}/stdout.txt`, result.stdout);
  return JSON.parse(await Deno.readTextFile(`${dir}/${out}/results.json`));
}

/** Both cases at once: each waits on its `loadlab run` and the browser. */
const pool = testPool(2);

pool.test("run: a protocol sweep [http1, h2] runs both, records each protocol, reports them as categories", async () => {
  await withTempDir(async (dir) => {
    const yaml = EXPERIMENT + "sweeps: [{ parameter: load.protocol, values: [http1, h2] }]\n";
    const results = await run(dir, yaml, "first");
    assertEquals(results.runs.map((r) => [r.name, r.sweep?.value, r.protocol]), [
      ["app/few/load.protocol=http1", "http1", "http1"],
      ["app/few/load.protocol=h2", "h2", "h2"],
    ]);
    for (const r of results.runs) ok(r.requests === 24 && !r.incomplete, `${r.name}: ${r.requests} requests`);
    assertEquals(results.runs.map((r) => (r.tls as { alpn?: string } | undefined)?.alpn), ["http/1.1", "h2"]);
    const knees = results.analysis?.knees ?? [];
    assertEquals(knees.map((k) => k.value), [null]);
    ok(/are categories/.test(knees[0].reason), knees[0].reason);
    const stdout = await Deno.readTextFile(`${dir}/first/stdout.txt`);
    ok(/run 1\/2 app\/few\/load\.protocol=http1 /.test(stdout), stdout);
    ok(/run 2\/2 app\/few\/load\.protocol=h2 \[h2, 1 stream\/conn\]/.test(stdout), stdout);

    // A second study against the first pairs the runs by their words.
    await run(dir, yaml, "second", ["--baseline", `${dir}/first/results.json`]);
    const gated = await Deno.readTextFile(`${dir}/second/stdout.txt`);
    for (const name of ["app/few/load.protocol=http1", "app/few/load.protocol=h2"]) {
      ok(gated.includes(`│ ${name} `), `${name} not compared with the baseline:\n${gated}`);
    }

    if (!requireProgram("chromium")) return;
    const visit = await openReport(`${dir}/first/report.html`, async (page) => ({
      sweepRows: await page.$$eval(
        "#sweeps table tbody tr",
        (rows) => rows.map((r) => (r as HTMLElement).innerText.split("\t")[1]),
      ),
      charts: await page.$$eval("#sweeps figcaption", (fs) => fs.map((f) => f.textContent)),
      blank: await blankCanvases(page, "#sweeps canvas"),
      knees: await page.$eval("#sweeps", (s) => (s as HTMLElement).innerText.includes("are categories")),
      note: await page.$eval("#sweeps", (s) => (s as HTMLElement).innerText.includes("bars per value")),
    }));
    assertEquals(visit.problems, []);
    assertEquals(visit.value.sweepRows, ["load.protocol=http1", "load.protocol=h2"]);
    assertEquals(visit.value.charts.length, 2, JSON.stringify(visit.value.charts));
    ok(
      visit.value.charts.every((c) => /sweep: (achieved req\/s|p99)/.test(c ?? "")),
      String(visit.value.charts),
    );
    assertEquals(visit.value.blank, []);
    ok(visit.value.knees, "the sweep section says why there is no knee");
    ok(visit.value.note, "the sweep section says how a sweep over words is drawn");
  });
});

pool.test("run: protocol beside a streams sweep records the protocol and streams of every run", async () => {
  await withTempDir(async (dir) => {
    const yaml = EXPERIMENT.replace("duration: 1s }", "duration: 1s, protocol: h2 }") +
      "sweeps:\n  - { parameter: load.protocol, values: [http1, h2] }\n" +
      "  - { parameter: load.streams, values: [1, 4] }\n";
    const results = await run(dir, yaml, "out");
    assertEquals(results.runs.map((r) => [r.name, r.protocol, r.streams ?? null]), [
      ["app/few/load.protocol=http1", "http1", null],
      ["app/few/load.protocol=h2", "h2", 1],
      ["app/few/load.streams=1", "h2", 1],
      ["app/few/load.streams=4", "h2", 4],
    ]);
    for (const r of results.runs) ok(r.requests === 24 && !r.incomplete, `${r.name}: ${r.requests} requests`);
  });
});
