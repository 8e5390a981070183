/**
 * @module
 * Where CI shows the results, end to end with real runs of the built-in target: with `GITHUB_STEP_SUMMARY`
 * naming a file (a temp file here, as GitHub Actions gives each step) the markdown summary is appended
 * to it without a flag, after what earlier steps wrote; `--output-bench` writes github-action-benchmark's
 * custom JSON, latency and throughput in two files; a step summary that cannot be written is a warning,
 * not a failed job. Loads are 30 requests; nothing is timed.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { withTempDir } from "./helpers.ts";
import { testPool } from "./fixtures/test_pool.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

async function loadlab(args: string[], stepSummary: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    env: { NO_COLOR: "1", GITHUB_STEP_SUMMARY: stepSummary },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

const EXPERIMENT = `
name: ci
targets:
  app: { kind: builtin }
loads:
  fixed: { model: count, requests: 30, connections: 2 }
repeats: 2
`;

/** Cases at once: each waits on its `loadlab` children. */
const pool = testPool(3);

pool.test("run: the summary is appended to GITHUB_STEP_SUMMARY and --output-bench writes both files", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/exp.yaml`, EXPERIMENT);
    const step = `${dir}/step_summary.md`;
    await Deno.writeTextFile(step, "an earlier step's summary\n");
    const out = await loadlab(
      ["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`, "--output-bench", `${dir}/bench.json`],
      step,
    );
    assertEquals(out.code, 0, out.stderr);
    const md = await Deno.readTextFile(step);
    assert(md.startsWith("an earlier step's summary\n## loadlab: ci\n"), md);
    assert(md.includes("| app/fixed\\#1 |"), md);
    const smaller = JSON.parse(await Deno.readTextFile(`${dir}/bench.json`));
    const bigger = JSON.parse(await Deno.readTextFile(`${dir}/bench.bigger.json`));
    assertEquals(smaller.map((e: { name: string }) => e.name), ["app/fixed p50", "app/fixed p99"]);
    assertEquals(bigger.map((e: { name: string; unit: string }) => [e.name, e.unit]), [
      ["app/fixed rps", "req/s"],
      ["app/fixed success", "%"],
    ]);
    for (const e of [...smaller, ...bigger]) {
      assert(Number.isFinite(e.value) && e.value > 0, JSON.stringify(e));
      assert(e.extra.startsWith("2 runs"), JSON.stringify(e));
    }
  });
});

pool.test("attack: the step summary is appended too; an unwritable one is a warning, exit 0", async () => {
  await withTempDir(async (dir) => {
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
    try {
      const url = `http://127.0.0.1:${server.addr.port}/`;
      const step = `${dir}/step.md`;
      const ok = await loadlab(["attack", url, "-n", "20", "-c", "2", "--no-live", "-q"], step);
      assertEquals(ok.code, 0, ok.stderr);
      assert((await Deno.readTextFile(step)).startsWith("## loadlab: attack\n"));
      const bad = await loadlab(["attack", url, "-n", "20", "-c", "2", "--no-live", "-q"], dir);
      assertEquals(bad.code, 0, bad.stderr);
      assert(bad.stderr.includes("warning: cannot append to GITHUB_STEP_SUMMARY"), bad.stderr);
      // A FIFO nobody reads: a warning once its reader is not there, never a wait without end.
      const fifo = `${dir}/step.fifo`;
      await new Deno.Command("mkfifo", { args: [fifo] }).output();
      const started = performance.now();
      const unread = await loadlab(["attack", url, "-n", "20", "-c", "2", "--no-live", "-q"], fifo);
      assertEquals(unread.code, 0, unread.stderr);
      assert(unread.stderr.includes("warning: cannot append to GITHUB_STEP_SUMMARY"), unread.stderr);
      assert(performance.now() - started < 30_000, `took ${performance.now() - started} ms`);
    } finally {
      await server.shutdown();
    }
  });
});

pool.test("attack --summary and --junit: an unwritable file is exit 5 before any load, as on run", async () => {
  await withTempDir(async (dir) => {
    for (const flag of ["--summary", "--junit"]) {
      // Nothing listens on this port: a probe that let the load start would end in exit 4, not 5.
      const out = await loadlab(
        ["attack", "http://127.0.0.1:9/", "-n", "5", "--no-live", flag, `${dir}/missing/dir/file`],
        `${dir}/step.md`,
      );
      assertEquals(out.code, 5, out.stderr);
      assert(out.stderr.includes(`${flag} ${dir}/missing/dir/file: cannot write`), out.stderr);
    }
  });
});
