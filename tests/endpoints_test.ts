/**
 * End to end, per endpoint: a mix of the built-in target's `/json` and `/sleep?ms=20` measured apart
 * (each endpoint its own latency, the counts adding up to the run's), and the same load through one
 * worker, four workers and two segments merged giving the same per-endpoint counts and histograms.
 */
import { loadlabInProcess } from "./in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { createTargetApp } from "../targets/app/app.ts";
import { decodeHistogram } from "../results/histogram.ts";
import type { EndpointResult, ResultsFile, RunResult } from "../results/mod.ts";
import { withTempDir } from "./helpers.ts";
import { testPool } from "./fixtures/test_pool.ts";

/** Cases at once: their `loadlab` calls run one at a time, in this process. */
const pool = testPool(3);

function builtinTarget() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, createTargetApp().fetch);
  return { url: `http://127.0.0.1:${server.addr.port}/`, close: () => server.shutdown() };
}

const MIX = ["--mix", "GET /json 3", "--mix", "GET /sleep?ms=20 1"];

async function runOf(file: string): Promise<RunResult> {
  return (JSON.parse(await Deno.readTextFile(file)) as ResultsFile).runs[0];
}

function byName(run: RunResult): Map<string, EndpointResult> {
  return new Map((run.endpoints ?? []).map((e) => [e.name, e]));
}

/** What must be equal however the load was split: counts, statuses and the histograms' totals. */
function countsOf(run: RunResult) {
  return (run.endpoints ?? []).map((e) => ({
    name: e.name,
    requests: e.requests,
    statusCodes: e.statusCodes,
    errors: e.errors,
    histogramTotal: e.histogramEncoded === null ? 0 : decodeHistogram(e.histogramEncoded).totalCount,
    intervalRequests: e.intervals.requests.reduce((a, b) => a + b, 0),
  }));
}

pool.test("a mix of /json and /sleep?ms=20: two endpoints, apart by the sleep, adding up to the run", async () => {
  const target = builtinTarget();
  try {
    await withTempDir(async (dir) => {
      const r = await loadlabInProcess([
        "attack",
        target.url,
        ...MIX,
        "-n",
        "400",
        "-c",
        "4",
        "-o",
        `${dir}/r.json`,
      ]);
      assertEquals(r.code, 0, r.stderr);
      const run = await runOf(`${dir}/r.json`);
      const endpoints = byName(run);
      assertEquals([...endpoints.keys()], ["GET /json", "GET /sleep?ms=20"]);
      const json = endpoints.get("GET /json")!, sleep = endpoints.get("GET /sleep?ms=20")!;
      // The mix's weights are honoured exactly per cycle: 3 to 1.
      assertEquals([json.requests, sleep.requests], [300, 100]);
      // The sleep endpoint cannot answer before its 20 ms; /json never waits for anything.
      ok(sleep.latencyMs!.p50 >= 20, `sleep p50 ${sleep.latencyMs!.p50}`);
      ok(json.latencyMs!.p50 < sleep.latencyMs!.p50, `json p50 ${json.latencyMs!.p50}`);
      assertEquals(json.requests + sleep.requests, run.requests);
      assertEquals(json.bytesRead + sleep.bytesRead, run.bytesRead);
      assertEquals(json.bytesWritten + sleep.bytesWritten, run.bytesWritten);
      for (const e of [json, sleep]) {
        assertEquals(e.statusCodes, { "200": e.requests });
        assertEquals(decodeHistogram(e.histogramEncoded!).totalCount, e.requests);
        assertEquals(e.intervals.requests.length, run.intervals.length);
        assertEquals(e.intervals.requests.reduce((a, b) => a + b, 0), e.requests);
      }
      // The terminal shows a per-endpoint table when there is more than one endpoint.
      ok(/GET \/sleep\?ms=20/.test(r.stdout), r.stdout);
      // HTTP/2 streams record each response under its request's endpoint too.
      const h2 = await loadlabInProcess([
        ...["attack", target.url, ...MIX, "-n", "400", "-c", "2", "--protocol", "h2c", "--streams", "4"],
        ...["--quiet", "-o", `${dir}/h2.json`],
      ]);
      assertEquals(h2.code, 0, h2.stderr);
      const overH2 = byName(await runOf(`${dir}/h2.json`));
      assertEquals([...overH2].map(([name, e]) => [name, e.requests]), [["GET /json", 300], [
        "GET /sleep?ms=20",
        100,
      ]]);
      ok(overH2.get("GET /sleep?ms=20")!.latencyMs!.p50 >= 20);
    });
  } finally {
    await target.close();
  }
});

pool.test("1 worker, 4 workers and 2 segments merged: the same per-endpoint counts and histograms", async () => {
  const target = builtinTarget();
  try {
    await withTempDir(async (dir) => {
      // 1600 requests: every worker's share (and every shard's worker's) is whole cycles of the 3:1 mix.
      const load = [target.url, ...MIX, "-n", "1600", "-c", "8", "--quiet"];
      const one = await loadlabInProcess(["attack", ...load, "--workers", "1", "-o", `${dir}/one.json`]);
      assertEquals(one.code, 0, one.stderr);
      const four = await loadlabInProcess(["attack", ...load, "--workers", "4", "-o", `${dir}/four.json`]);
      assertEquals(four.code, 0, four.stderr);
      for (const i of [0, 1]) {
        const shard = await loadlabInProcess([
          "attack",
          ...load,
          ...["--workers", "2", "--segment", `${i}/2`, "-o", `${dir}/shard-${i}.json`],
        ]);
        assertEquals(shard.code, 0, shard.stderr);
      }
      const merge = await loadlabInProcess([
        "merge",
        `${dir}/shard-0.json`,
        `${dir}/shard-1.json`,
        "-o",
        `${dir}/merged.json`,
      ]);
      assertEquals(merge.code, 0, merge.stderr);
      const expected = countsOf(await runOf(`${dir}/one.json`));
      assertEquals(expected.map((e) => [e.name, e.requests]), [["GET /json", 1200], [
        "GET /sleep?ms=20",
        400,
      ]]);
      assertEquals(expected.map((e) => e.histogramTotal), [1200, 400]);
      assertEquals(countsOf(await runOf(`${dir}/four.json`)), expected);
      assertEquals(countsOf(await runOf(`${dir}/merged.json`)), expected);
    });
  } finally {
    await target.close();
  }
});

pool.test("a per-endpoint threshold fails while the run's passes; a selector matching nothing is exit 2", async () => {
  const target = builtinTarget();
  try {
    const load = ["attack", target.url, ...MIX, "-n", "200", "-c", "2", "--quiet"];
    const r = await loadlabInProcess([
      ...load,
      ...["--threshold", "requests>=200", "--threshold", "requests{name:GET /sleep?ms=20}>=100"],
      ...["--threshold", "http_req_duration{name:GET /sleep?ms=20}: p(50)<20"],
    ]);
    // Counts are exact (200 in all, 50 of them the sleep's); the sleep cannot answer within 20 ms.
    assertEquals(r.code, 1, r.stdout + r.stderr);
    ok(/PASS\s+requests>=200/.test(r.stdout), r.stdout);
    ok(/FAIL\s+requests\{name:GET \/sleep\?ms=20\}>=100\s+\(attack: 50\)/.test(r.stdout), r.stdout);
    ok(/FAIL\s+http_req_duration\{name:GET \/sleep\?ms=20\}: p\(50\)<20/.test(r.stdout), r.stdout);
    const typo = await loadlabInProcess([...load, "--threshold", "p99{name:GET /slep}<1s"]);
    assertEquals(typo.code, 2, typo.stderr);
    ok(typo.stderr.includes('the endpoints are "GET /json", "GET /sleep?ms=20"'), typo.stderr);
  } finally {
    await target.close();
  }
});

pool.test("an experiment file: name:, tags: and a data-fed request's template name; thresholds by tag", async () => {
  const target = builtinTarget();
  try {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(`${dir}/ms.csv`, "ms\n20\n21\n22\n");
      await Deno.writeTextFile(
        `${dir}/exp.yaml`,
        `
name: named
targets:
  app: { url: "${target.url.slice(0, -1)}" }
data:
  waits: { file: ms.csv }
loads:
  closed:
    model: count
    connections: 2
    requests: 120
    data: waits
    mix:
      - { path: /json, name: fast, weight: 2 }
      - { path: "/sleep?ms={{ ms }}", tags: { tier: slow } }
thresholds:
  - "p50{tier:slow}>=20ms"
  - "requests{name:fast}==80"
  - "p99{name:fast}<60s"
`,
      );
      const r = await loadlabInProcess(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`]);
      assertEquals(r.code, 0, r.stdout + r.stderr);
      const results = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`)) as ResultsFile;
      const run = results.runs[0];
      // Filled values never make names: the three waits are one endpoint.
      assertEquals(run.endpoints!.map((e) => [e.name, e.requests, e.tags ?? {}]), [
        ["fast", 80, {}],
        ["GET /sleep?ms={{ ms }}", 40, { tier: "slow" }],
      ]);
      assertEquals(results.thresholds.map((t) => t.ok), [true, true, true]);
    });
  } finally {
    await target.close();
  }
});
