/**
 * `loadlab run` beyond the plain matrix, against real built-in targets: a capacity search bisects with
 * short probe runs kept in results.json (marked `probe`, left out of the analysis groups); a target that
 * cannot start ends the experiment with exit 3 and its log tail while the finished runs stay in the file;
 * `loadlab presets` lists the shipped experiments; a target replaced by a URL where nothing answers exits
 * 4. The search's SLO is a request count, exact for an open-model probe, so the bisection's path does not
 * depend on the machine's speed.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { ResultsFile } from "../results/mod.ts";
import { runLoadlab, withTempDir } from "./helpers.ts";
import { freePort } from "../system/ports.ts";
import { testPool } from "./fixtures/test_pool.ts";

Deno.test("run: a capacity search bisects with probe runs and stores its bracket", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/search.yaml`,
      `
name: search
targets:
  only: { kind: builtin }
requests: [/json]
loads:
  steady: { model: rate, rate: 20, duration: 300ms }
search:
  parameter: load.rate
  range: [20, 200]
  slo: "requests <= 30"   # 300 ms probes: 20/s sends 6, 65/s about 20, 110/s 33
  probe: 300ms
  maxProbes: 4
`,
    );
    const out = await runLoadlab(["run", `${dir}/search.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(out.code, 0, out.stderr + out.stdout);
    const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
    const [search] = results.analysis?.searches ?? [];
    assertEquals(search.probes.map((p) => [p.value, p.ok]), [
      [20, true],
      [200, false],
      [110, false],
      [65, true],
      [65, true],
    ]);
    assertEquals([search.value, search.low?.value, search.high?.value], [65, 65, 110]);
    const probes = results.runs.filter((r) => r.probe);
    assertEquals(probes.map((r) => r.name), search.probes.map((p) => p.run));
    assertEquals(new Set(probes.map((r) => r.name)).size, 5);
    assertEquals(results.analysis?.groups.map((g) => g.key), ["only/steady"]);
  });
});

/**
 * A target whose every answer makes `^(a+)+$` backtrack: milliseconds of CPU per answer in the load worker,
 * seconds per second at 400 answers a second, yet far from the 0.6 s a worker may go silent on busy cores
 * before it is ended as stuck (22 a's took that long there, and a probe ended incomplete).
 */
function backtrackingTarget() {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(`${"a".repeat(19)}!`),
  );
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test({
  name:
    "run: a capacity search whose probes were generator-bound never calls its value the target's capacity",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // The generator-bound truth table's way: a capture that backtracks on every answer holds the one load
    // worker up whatever the machine's load, so every probe is generator-bound; the SLO is a request count,
    // met at both ends, so the value found is the top of the range and rests on generator-bound probes.
    const target = backtrackingTarget();
    try {
      await withTempDir(async (dir) => {
        await Deno.writeTextFile(
          `${dir}/search.yaml`,
          `
name: gsearch
targets:
  t: { url: "${target.url}" }
loads:
  l: { model: rate, rate: 400, workers: 1, duration: 1s, gracefulStop: 0s }
flows:
  - name: f
    steps:
      - get: /
        capture: [{ regexp: "^(a+)+$", as: x }]
search:
  parameter: load.rate
  range: [400, 800]
  slo: "requests >= 1"
  probe: 1s
  maxProbes: 2
`,
        );
        const out = await runLoadlab(["run", `${dir}/search.yaml`, "--out-dir", `${dir}/out`]);
        assertEquals(out.code, 0, out.stderr + out.stdout);
        const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
        const [search] = results.analysis?.searches ?? [];
        ok(search, `no search concluded:\n${out.stdout}`);
        // Judged by each probe's own record: a busy machine can hold the worker past the 0.6 s it may go
        // silent, so a probe may end with it cut as stuck (incomplete), the SLO failed there by loadlab.
        const probes = new Map(results.runs.filter((r) => r.probe).map((r) => [r.name, r]));
        const stuck = (name: string) => (probes.get(name)?.stuckWorkers ?? 0) > 0;
        ok(
          [...probes.values()].every((r) => r.generatorBound || stuck(r.name)),
          "every probe generator-bound",
        );
        const failed = search.probes.filter((p) => !p.ok);
        ok(
          failed.every((p) => stuck(p.run)),
          `failed only where a worker was cut: ${JSON.stringify(failed)}`,
        );
        // The value is the highest passing below every failed probe (a repeat at the top can fail too).
        const high = failed.length ? Math.min(...failed.map((p) => p.value)) : null;
        const value = Math.max(
          ...search.probes.filter((p) => p.ok && p.value < (high ?? Infinity)).map((p) => p.value),
        );
        assertEquals([search.value, search.high?.value ?? null], [value, high]);
        const stored = ((search as { qualifiers?: string[] }).qualifiers ?? []).join("; ");
        const found = `generator-bound.* at ${value}, the value found: .*the target's limit may be higher`;
        ok(new RegExp(found).test(stored), stored);
        ok(
          !failed.length || /stuck.* where the SLO failed: the failure may be loadlab's/.test(stored),
          stored,
        );
        const line = out.stdout.split("\n").find((l) => l.includes(`load.rate = ${value}`));
        ok(line && new RegExp(found).test(line), out.stdout);
        ok(!/capacity of t\/l/.test(out.stdout), "never the target's capacity: " + out.stdout);
      });
    } finally {
      await target.close();
    }
  },
});

/**
 * The cases that only wait on their `loadlab` children, all at once after the searches (alone, since a
 * probe's count is its sending on time).
 */
const pool = testPool(4);

pool.test("run: a target that cannot start exits 3 with its log tail; finished runs are kept", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/broken.yaml`,
      `
name: broken
targets:
  fine: { kind: builtin }
  broken:
    kind: external
    command: ${JSON.stringify(Deno.execPath())}
    args: [eval, "console.error('boom: no database'); Deno.exit(3)"]
    url: http://127.0.0.1:9
loads:
  fixed: { model: count, requests: 20, connections: 2 }
order: sequential
`,
    );
    const out = await runLoadlab(["run", `${dir}/broken.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(out.code, 3, out.stderr + out.stdout);
    ok(out.stderr.includes(`target "broken" could not be started`), out.stderr);
    ok(out.stderr.includes("boom: no database"), out.stderr);
    const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
    assertEquals(results.runs.map((r) => r.name), ["fine/fixed"]);
    ok(!results.complete);
    ok(out.stderr.includes(`finished runs are kept in ${dir}/out/results.json`), out.stderr);
    // Broken before any run: no finished run is claimed.
    const alone = await runLoadlab([
      "run",
      `${dir}/broken.yaml`,
      "--out-dir",
      `${dir}/alone`,
      "--only",
      "target=broken",
    ]);
    assertEquals(alone.code, 3, alone.stderr);
    ok(!alone.stderr.includes("finished runs are kept"), alone.stderr);
  });
});

pool.test("presets: lists the demo with its runs and durations", async () => {
  const out = await runLoadlab(["presets"]);
  assertEquals(out.code, 0, out.stderr);
  const row = out.stdout.split("\n").find((l) => l.includes("preset:demo"));
  ok(row && /│ 4 +│/.test(row), out.stdout);
});

pool.test("run: --target to a server that is not there exits 4, naming the errors", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/exp.yaml`,
      `
name: nobody
targets:
  only: { kind: builtin }
loads:
  fixed: { model: count, requests: 10, connections: 1 }
`,
    );
    const port = freePort(); // a port nobody listens on
    const out = await runLoadlab([
      "run",
      `${dir}/exp.yaml`,
      "--target",
      `only=http://127.0.0.1:${port}`,
      "--out-dir",
      `${dir}/out`,
    ]);
    assertEquals(out.code, 4, out.stderr + out.stdout);
    ok(out.stderr.includes("no response at all") && out.stderr.includes("connect"), out.stderr);
    const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
    assertEquals(results.runs[0].targetInfo?.kind, "url");
    ok(!(await Deno.stat(`${dir}/out/logs`).then(() => true, () => false)), "nothing was started");
  });
});

pool.test("run: a target that dies during a run exits 3; the run is kept, marked incomplete", async () => {
  await withTempDir(async (dir) => {
    const port = freePort();
    const server = `Deno.serve({ hostname: "127.0.0.1", port: ${port} }, () => new Response("ok")); ` +
      `setTimeout(() => { console.error("dying on purpose"); Deno.exit(1); }, 1000);`;
    await Deno.writeTextFile(
      `${dir}/dies.yaml`,
      `
name: dies
targets:
  mortal:
    kind: external
    command: ${JSON.stringify(Deno.execPath())}
    args: [eval, ${JSON.stringify(server)}]
    url: http://127.0.0.1:${port}
    ready: { path: / }
loads:
  closed: { model: connections, connections: 1, duration: 2s }
  never: { model: count, requests: 5, connections: 1 }
`,
    );
    const out = await runLoadlab(["run", `${dir}/dies.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(out.code, 3, out.stderr + out.stdout);
    ok(out.stderr.includes(`target "mortal" died during run mortal/closed`), out.stderr);
    ok(out.stderr.includes("dying on purpose"), out.stderr);
    const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
    assertEquals(results.runs.map((r) => [r.name, r.incomplete]), [["mortal/closed", true]]);
    // The run line shows the verdict results.json holds, not the one from before the death was known.
    const line = out.stdout.split("\n").find((l) => l.startsWith("run 1/2 mortal/closed "));
    ok(line && /\[[^\]]*incomplete[^\]]*\]$/.test(line), out.stdout);
  });
});
