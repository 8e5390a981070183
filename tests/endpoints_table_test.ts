/**
 * The per-endpoint table on the terminal, end to end through `loadlab run` as a user runs it: a three-step
 * flow against the built-in target, a k6 script with two named requests, and a run of one endpoint, which
 * shows no table (its numbers are the run's). Bounded count loads.
 */
import { loadlabInProcess } from "./in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { ResultsFile } from "../results/mod.ts";
import { withTarget, withTempDir } from "./helpers.ts";
import { runK6Text } from "./k6_run.ts";
import { testPool } from "./fixtures/test_pool.ts";

/** The table's rows under its column header: each row's cells, the name first. */
function tableRows(stdout: string): string[][] {
  const lines = stdout.split("\n");
  const header = lines.findIndex((l) =>
    /^\s+endpoint\s+requests\s+failures\s+p50\s+p95\s+p99\s+max\s+req\/s$/.test(l)
  );
  ok(header > 0, stdout);
  // The heading says the run's verdict, on its own lines under it when too long (a flagged run's).
  const heading = lines.findLastIndex((l, i) => i < header && l.includes("Endpoints (busiest first"));
  ok(heading >= 0 && lines.slice(heading, header).join(" ").includes("verdict: "), stdout);
  const rows: string[][] = [];
  for (const line of lines.slice(header + 1)) {
    const cells = line.trim().split(/ {2,}/);
    if (cells.length < 8) break;
    rows.push(cells);
  }
  for (const line of lines.slice(heading, header + 1 + rows.length)) ok(line.length <= 110, line);
  return rows;
}

/** Cases at once: their `loadlab run`s one at a time, in this process. */
const pool = testPool(3);

pool.test("loadlab run of a three-step flow prints one row per step, its counts adding up to the run", () =>
  withTempDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/e.yaml`,
      `name: steps
targets:
  app: { kind: builtin }
flows:
  - name: browse
    steps:
      - get: /json
      - get: /
      - get: /json?page=2
loads:
  short: { model: count, requests: 90, connections: 2 }
`,
    );
    const r = await loadlabInProcess(["run", `${dir}/e.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    const run = (JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`)) as ResultsFile).runs[0];
    const rows = tableRows(r.stdout);
    assertEquals(rows.length, 3, r.stdout);
    const byName = new Map(run.endpoints!.map((e) => [e.name, e]));
    assertEquals(new Set(rows.map((row) => row[0])), new Set(byName.keys()));
    for (const [name, requests, failures] of rows) {
      assertEquals(requests, String(byName.get(name)!.requests), r.stdout);
      assertEquals(failures, "0 (0%)");
    }
    assertEquals(rows.reduce((a, row) => a + Number(row[1]), 0), run.requests);
    // 30 responses each: a p99 is the slowest of them, and the table says so.
    ok(rows.every((row) => row[5].endsWith("*")), r.stdout);
    ok(r.stdout.includes("too few responses for this percentile"), r.stdout);
  }));

pool.test("loadlab run of a k6 script with two named requests prints a row for each name", () =>
  withTarget(async (url) => {
    const script = `import http from "k6/http";
export const options = { vus: 2, iterations: 40 };
export default function () {
  http.get("http://app.test/json", { tags: { name: "catalog" } });
  http.get("http://app.test/?q=" + Math.random(), { tags: { name: "home" } });
  http.get("http://app.test/json", { tags: { name: "catalog" } });
}
`;
    const run = await runK6Text(script, url);
    assertEquals(run.code, 0, run.text);
    const rows = tableRows(run.stdout);
    assertEquals(rows.map((row) => row.slice(0, 3)), [["catalog", "80", "0 (0%)"], ["home", "40", "0 (0%)"]]);
    // k6's -q keeps to each run's summary line.
    const quiet = await runK6Text(script, url, ["-q"]);
    assertEquals(quiet.code, 0, quiet.text);
    ok(!quiet.stdout.includes("Endpoints (") && quiet.stdout.includes("app/k6"), quiet.stdout);
  }));

pool.test("loadlab run of one endpoint prints no endpoint table", () =>
  withTempDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/e.yaml`,
      `name: one
targets:
  app: { kind: builtin }
loads:
  short: { model: count, requests: 20, connections: 1 }
`,
    );
    const r = await loadlabInProcess(["run", `${dir}/e.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    ok(!r.stdout.includes("Endpoints ("), r.stdout);
    ok(!/\bendpoint\s+requests\b/.test(r.stdout), r.stdout);
  }));
