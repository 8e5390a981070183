/**
 * `loadlab run FILE` end to end against real built-in targets: the run matrix in interleaved order with
 * repeats and the analysis over them, resume after a stop (by `--only` and by Ctrl-C), thresholds with
 * their exit codes and CI files, and bad input (a bad file, an unwritable output folder) refused before
 * any target starts. Loads are tiny (a few hundred ms or a few dozen requests): these check behaviour,
 * never speed.
 */
import { loadlabInProcess } from "./in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { ResultsFile } from "../results/mod.ts";
import { withTempDir } from "./helpers.ts";
import { testPool } from "./fixtures/test_pool.ts";

const TWO_BY_TWO = `
name: two-by-two
targets:
  plain: { kind: builtin }
  gzip: { kind: builtin, compress: true }
loads:
  closed:
    model: connections
    connections: 2
    duration: 300ms
    requests: [/json]
  fixed:
    model: count
    requests: 40
    connections: 2
repeats: 2
interval: 100ms
thresholds:
  - "requests > 0"
`;

/** Cases at once: their `loadlab` calls run one at a time, in this process (Ctrl-C in a child). */
const pool = testPool(3);

async function readResults(dir: string): Promise<ResultsFile> {
  return JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
}

/** The local ports of loopback connections established to `port` (from /proc/net/tcp). */
async function openClientPorts(port: number): Promise<Set<number>> {
  const rows = (await Deno.readTextFile("/proc/net/tcp")).split("\n").slice(1).map((l) =>
    l.trim().split(/\s+/)
  );
  const portOf = (address: string) => parseInt(address.split(":")[1], 16);
  return new Set(rows.filter((r) => r[3] === "01" && portOf(r[2]) === port).map((r) => portOf(r[1])));
}

/** Nothing listens on the ports the runs used: every target was stopped. */
async function assertTargetsStopped(results: ResultsFile): Promise<void> {
  for (const port of new Set(results.runs.map((r) => Number(new URL(r.url).port)))) {
    const listening = await Deno.connect({ hostname: "127.0.0.1", port }).then(
      (c) => (c.close(), true),
      () => false,
    );
    ok(!listening, `a target still listens on ${port}`);
  }
}

pool.test("run: two targets x two loads x two repeats, interleaved, analysed, targets stopped", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/exp.yaml`, TWO_BY_TWO);
    const out = await loadlabInProcess(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(out.code, 0, out.stderr + out.stdout);
    const results = await readResults(dir);
    assertEquals(results.schema, "loadlab.results/v3");
    assertEquals(results.complete, true);
    assertEquals(results.runs.map((r) => [r.variant, r.load, r.repeat]), [
      ["plain", "closed", 0],
      ["gzip", "closed", 0],
      ["plain", "fixed", 0],
      ["gzip", "fixed", 0],
      ["plain", "closed", 1],
      ["gzip", "closed", 1],
      ["plain", "fixed", 1],
      ["gzip", "fixed", 1],
    ]);
    assertEquals(new Set(results.runs.map((r) => r.name)).size, 8);
    for (const run of results.runs) ok(run.requests > 0 && !run.incomplete, `${run.name} answered`);
    const groups = results.analysis?.groups ?? [];
    assertEquals(groups.length, 4);
    for (const g of groups) assertEquals(g.metrics.rps.n, 2, g.key);
    assertEquals(results.thresholds.length, 8);
    ok(results.thresholds.every((t) => t.ok));
    // One line per run on a pipe.
    assertEquals(out.stdout.split("\n").filter((l) => /^run \d+\/8 /.test(l)).length, 8, out.stdout);
    ok((await Deno.readTextFile(`${dir}/out/report.html`)).length > 1000);
    await assertTargetsStopped(results);
  });
});

pool.test("run --resume after --only runs the rest and keeps the finished runs", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/exp.yaml`, TWO_BY_TWO);
    const args = ["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`, "--set", "repeats=1"];
    const first = await loadlabInProcess([...args, "--only", "load=fixed"]);
    assertEquals(first.code, 0, first.stderr);
    const before = await readResults(dir);
    assertEquals(before.runs.map((r) => r.load), ["fixed", "fixed"]);
    const second = await loadlabInProcess([...args, "--resume"]);
    assertEquals(second.code, 0, second.stderr + second.stdout);
    const after = await readResults(dir);
    assertEquals(after.runs.length, 4);
    assertEquals(after.complete, true);
    // The two finished runs were kept as they were, not run again.
    for (const run of before.runs) {
      assertEquals(after.runs.find((r) => r.name === run.name)?.startedAt, run.startedAt, run.name);
    }
    assertEquals(second.stdout.split("\n").filter((l) => /^run \d+\/2 /.test(l)).length, 2, second.stdout);
  });
});

pool.test("run: Ctrl-C keeps the finished runs and the partial one, exits 130, --resume finishes", async () => {
  await withTempDir(async (dir) => {
    // One target, so the second run starts as soon as the first is written (no target start in
    // between for the stop to land in), and both loads last long enough to be stopped mid-run.
    await Deno.writeTextFile(
      `${dir}/exp.yaml`,
      `name: stop-me
targets:
  plain: { kind: builtin }
loads:
  first: { model: connections, connections: 2, duration: 3s, requests: [/json] }
  second: { model: connections, connections: 2, duration: 4s, requests: [/json] }
interval: 100ms
`,
    );
    const args = ["run", "-A", new URL("../main.ts", import.meta.url).pathname, "run", `${dir}/exp.yaml`];
    const child = new Deno.Command(Deno.execPath(), {
      args: [...args, "--out-dir", `${dir}/out`],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).spawn();
    // Stop during the second run's load: once the first is in the file, when a connection the first
    // did not hold is open to the target.
    const deadline = Date.now() + 30_000;
    let firstPorts: Set<number> | null = null;
    while (Date.now() < deadline) {
      const first = await readResults(dir).then((r) => r.runs[0], () => undefined);
      if (first) {
        const port = Number(new URL(first.url).port);
        firstPorts ??= await openClientPorts(port);
        if ([...await openClientPorts(port)].some((p) => !firstPorts!.has(p))) break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    try {
      child.kill("SIGINT");
    } catch { /* ended already: the assertions below say how */ }
    const out = await child.output();
    const dec = new TextDecoder();
    assertEquals(out.code, 130, dec.decode(out.stderr) + dec.decode(out.stdout));
    const stopped = await readResults(dir);
    assertEquals(stopped.runs.length, 2);
    assertEquals(stopped.runs.map((r) => Boolean(r.incomplete)), [false, true]);
    ok(!stopped.complete);
    await assertTargetsStopped(stopped);
    // Shorter from here: a run's name does not depend on its duration, so the plan still matches the file.
    const shorter = ["--set", "loads.second.duration=300ms"];
    const resumed = await loadlabInProcess([
      "run",
      `${dir}/exp.yaml`,
      "--out-dir",
      `${dir}/out`,
      "--resume",
      ...shorter,
    ]);
    assertEquals(resumed.code, 0, resumed.stderr);
    const done = await readResults(dir);
    assertEquals(done.runs.length, 2);
    assertEquals(done.runs[0].startedAt, stopped.runs[0].startedAt);
    ok(done.runs.every((r) => !r.incomplete));
  });
});

const SMALL = (thresholds: string) => `
name: small
targets:
  only: { kind: builtin }
loads:
  fixed: { model: count, requests: 30, connections: 2 }
thresholds: ${thresholds}
`;

pool.test("run: thresholds pass (exit 0) and fail (exit 1 with a table, --summary and --junit written)", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/pass.yaml`, SMALL(`["success >= 90%", "requests == 30"]`));
    const pass = await loadlabInProcess(["run", `${dir}/pass.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(pass.code, 0, pass.stderr);
    await Deno.writeTextFile(
      `${dir}/fail.yaml`,
      SMALL(`["success >= 90%", { expr: "p99 < 0.001ms", load: fixed }]`),
    );
    const fail = await loadlabInProcess([
      "run",
      `${dir}/fail.yaml`,
      "--out-dir",
      `${dir}/out`,
      "--summary",
      `${dir}/summary.md`,
      "--junit",
      `${dir}/junit.xml`,
    ]);
    assertEquals(fail.code, 1, fail.stderr);
    ok(fail.stdout.includes("FAILED threshold") && fail.stdout.includes("p99 < 0.001ms"), fail.stdout);
    ok(fail.stdout.includes("load=fixed"), fail.stdout);
    ok(!fail.stdout.includes("success >= 90%"), "a passing gate is not listed");
    ok((await Deno.readTextFile(`${dir}/summary.md`)).includes("p99 &lt; 0.001ms"));
    ok((await Deno.readTextFile(`${dir}/junit.xml`)).includes("<testsuite"));
  });
});

pool.test("run: a bad experiment file exits 2 naming the path, before anything starts", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/bad.yaml`,
      SMALL(`[]`).replace("requests: 30", "requests: 30, duration: 10"),
    );
    const out = await loadlabInProcess(["run", `${dir}/bad.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(out.code, 2, out.stderr);
    ok(out.stderr.includes("loads.fixed.duration"), out.stderr);
    ok(!(await Deno.stat(`${dir}/out`).then(() => true, () => false)), "no output folder made");
    const missing = await loadlabInProcess(["run", `${dir}/nope.yaml`]);
    assertEquals(missing.code, 2);
    ok(missing.stderr.includes("nope.yaml"), missing.stderr);
  });
});

pool.test("run: an output folder that cannot be written exits 5 before any load", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/exp.yaml`, SMALL(`[]`));
    await Deno.writeTextFile(`${dir}/file`, "not a folder");
    const out = await loadlabInProcess(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/file/out`]);
    assertEquals(out.code, 5, out.stderr);
    ok(out.stderr.includes(`${dir}/file/out`), out.stderr);
    ok(!/^run \d/m.test(out.stdout), "no run started");
  });
});
