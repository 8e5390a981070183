/**
 * @module
 * `--strict` end to end (exit 6, README's table): a real run loadlab does not trust, made cheaply by
 * asking one connection for far more than a slow endpoint answers (every send waits for it, or is
 * dropped), passes its gates and exits 0 without `--strict`, exits 6 with it (and with `strict: true`
 * in an experiment file), and every gate printed says it ran on a flagged run. The precedence with the
 * other codes: 130/143, 5, 4, then 6, then 1. Loads are a second or less on 127.0.0.1; nothing is
 * timed.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { runLoadlab, withTempDir } from "./helpers.ts";
import type { ResultsFile } from "../results/mod.ts";
import { runVerdict } from "../results/conclude/run_verdict.ts";
import { freePort } from "../system/ports.ts";
import { testPool } from "./fixtures/test_pool.ts";

/** Each case waits on its `loadlab` children: three at once. */
const pool = testPool(3);

/** A target that answers every request after `delayMs`. */
function slowTarget(delayMs: number) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return new Response("ok");
  });
  return { url: `http://127.0.0.1:${server.addr.port}/`, close: () => server.shutdown() };
}

const ATTACK = (url: string, out: string) => [
  "attack",
  url,
  "-R",
  "300",
  "-d",
  "1s",
  "--max-connections",
  "1",
  "--no-live",
  "--out",
  out,
  "--threshold",
  "p99<30s",
  "--threshold",
  "success>=1%",
];

pool.test("attack --strict: a flagged run exits 6, its gate says so; without --strict it exits 0", async () => {
  const t = slowTarget(20);
  try {
    await withTempDir(async (dir) => {
      const lax = await runLoadlab(ATTACK(t.url, `${dir}/lax.json`));
      assertEquals(lax.code, 0, lax.stderr);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/lax.json`));
      const verdict = runVerdict(results.runs[0]);
      assert(!verdict.ok, "one connection against 300/s of 20 ms requests is flagged");
      assert(
        lax.stdout.includes(`PASS  p99<30s`) && lax.stdout.includes(`— on a ${verdict.label} run`),
        lax.stdout,
      );
      assert(lax.stdout.includes(`Verdict: ${verdict.label}`), lax.stdout);
      // Each gate's actual in its rule's unit: seconds for "p99<30s", a percentage for "success>=1%".
      assert(/PASS {2}p99<30s {2}\(attack: \d+\.\d{3} s\)/.test(lax.stdout), lax.stdout);
      assert(/PASS {2}success>=1% {2}\(attack: \d+\.\d\d%\)/.test(lax.stdout), lax.stdout);

      const strict = await runLoadlab([...ATTACK(t.url, `${dir}/strict.json`), "--strict"]);
      assertEquals(strict.code, 6, strict.stderr);
      assert(/--strict: run attack is flagged: /.test(strict.stderr), strict.stderr);
    });
  } finally {
    await t.close();
  }
});

pool.test("attack --json carries the flagged run's verdict and its requested, sent and dropped sends", async () => {
  const t = slowTarget(20);
  try {
    await withTempDir(async (dir) => {
      const r = await runLoadlab([...ATTACK(t.url, `${dir}/r.json`), "--json"]);
      assertEquals(r.code, 0, r.stderr);
      const json = JSON.parse(r.stdout);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
      const verdict = runVerdict(results.runs[0]);
      assert(!verdict.ok, "one connection against 300/s of 20 ms requests is flagged");
      assertEquals(json.verdict, verdict);
      assertEquals(json.sends.requestedRps, 300);
      assertEquals(
        json.sends.sent,
        json.requests + Object.values(json.errors as Record<string, number>)
          .reduce((a, n) => a + n, 0),
      );
      assertEquals(json.sends.dropped, json.droppedSends);
      assert(json.sends.droppedShare >= 0 && json.sends.droppedShare <= 1, String(json.sends.droppedShare));
    });
  } finally {
    await t.close();
  }
});

pool.test("run with strict: true in the file exits 6 on a flagged run, and its summary flags the gate", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/strict.yaml`,
      `
name: strict
strict: true
targets:
  only: { kind: builtin }
loads:
  swamped: { model: rate, rate: 300, duration: 1s, maxConnections: 1, requests: ["/sleep?ms=20"] }
thresholds: ["p99 < 30s"]
`,
    );
    const r = await runLoadlab([
      "run",
      `${dir}/strict.yaml`,
      "--out-dir",
      `${dir}/out`,
      "--summary",
      `${dir}/s.md`,
      "--junit",
      `${dir}/j.xml`,
    ]);
    assertEquals(r.code, 6, r.stderr);
    // The flagged run is a failing test case of its own, named by its verdict, in CI test views.
    assert(
      /name="run verdict"[^>]*>\n\s*<failure type="verdict" message="[^"]+">only\/swamped/.test(
        await Deno.readTextFile(`${dir}/j.xml`),
      ),
      await Deno.readTextFile(`${dir}/j.xml`),
    );
    assert(/--strict: run only\/swamped.* is flagged/.test(r.stderr), r.stderr);
    assert(/\[(generator-bound|server-bound|dropped)[^\]]*\]/.test(r.stdout), r.stdout);
    assert((await Deno.readTextFile(`${dir}/s.md`)).includes("⚠️ on a"), "the summary flags the gate");
  });
});

pool.test("--strict keeps the precedence: no response at all is still 4, not 6", async () => {
  const url = `http://127.0.0.1:${freePort()}/`;
  const r = await runLoadlab(["attack", url, "-n", "5", "-c", "1", "--strict", "--no-live"]);
  assertEquals(r.code, 4, r.stderr);
  assert(!r.stderr.includes("--strict"), r.stderr);
});
