/**
 * @module
 * A `--fail-on` gate that could judge nothing must not pass: a baseline whose runs pair none of this
 * run's (a renamed load, another experiment's file), or pairs only flagged runs, exits 8 in `run` and in
 * `attack`, and the terminal says which runs paired and which did not. Real runs of the built-in target
 * (the `run` one started by loadlab, the `attack` one served here) and a real baseline written by a first
 * run; loads are 1-2 s on at most 2 connections on 127.0.0.1, and only exit codes and lines are asserted.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { runLoadlab, withTempDir } from "./helpers.ts";
import { createTargetApp } from "../targets/app/app.ts";
import { testPool } from "./fixtures/test_pool.ts";

const experiment = (load: string) => `
name: gate
targets:
  app: { kind: builtin }
loads:
  ${load}: { model: connections, connections: 2, duration: 1s, requests: ["/sleep?ms=5"] }
interval: 100ms
`;

/** The built-in target's app on a free loopback port, for `attack`. */
function builtinTarget() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, createTargetApp().fetch);
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** Both cases at once: each waits on its own runs' length, with its own target and folder. */
const pool = testPool(2);

pool.test("--fail-on with a baseline that pairs no run exits 8 in run and attack, naming both sides", async () => {
  const t = builtinTarget();
  try {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(`${dir}/steady.yaml`, experiment("steady"));
      await Deno.writeTextFile(`${dir}/renamed.yaml`, experiment("renamed"));
      const base = await runLoadlab(["run", `${dir}/steady.yaml`, "--out-dir", `${dir}/base`]);
      assertEquals(base.code, 0, base.stderr);
      const gate = ["--baseline", `${dir}/base`, "--fail-on", "p99 +10%"];

      const renamed = await runLoadlab(["run", `${dir}/renamed.yaml`, "--out-dir", `${dir}/new`, ...gate]);
      assertEquals(renamed.code, 8, renamed.stdout + renamed.stderr);
      assert(renamed.stdout.includes("not in the baseline: app/renamed"), renamed.stdout);
      assert(renamed.stdout.includes("only in the baseline: app/steady"), renamed.stdout);
      assert(
        /baseline gate: NOT JUDGED \(exit 8\): "p99 \+10%" checked no run: nothing paired: no run .*\(app\/renamed\)/
          .test(
            renamed.stdout,
          ),
        renamed.stdout,
      );

      const attack = await runLoadlab(
        ["attack", `${t.url}/sleep?ms=5`, "-c", "2", "-d", "1s", "--no-live", ...gate],
      );
      assertEquals(attack.code, 8, attack.stdout + attack.stderr);
      assert(attack.stdout.includes("only in the baseline: app/steady"), attack.stdout);
      assert(attack.stdout.includes("NOT JUDGED (exit 8)"), attack.stdout);
    });
  } finally {
    await t.close();
  }
});

pool.test("--fail-on with only flagged runs paired exits 8: their numbers cannot pass a rule", async () => {
  const t = builtinTarget();
  try {
    await withTempDir(async (dir) => {
      // One connection asked for 300/s of 20 ms answers: flagged on both sides, every time (server-bound, or
      // generator-bound on a machine loaded past its cores).
      const attack = (extra: string[]) =>
        runLoadlab([
          "attack",
          `${t.url}/sleep?ms=20`,
          "-R",
          "300",
          "--max-connections",
          "1",
          "-d",
          "2s",
          "--interval",
          "100ms",
          "--no-live",
          ...extra,
        ]);
      const base = await attack(["--out", `${dir}/base.json`]);
      assertEquals(base.code, 0, base.stderr);
      // A tolerance no change of the same load can pass, so only the flags decide.
      const flagged = await attack(["--baseline", `${dir}/base.json`, "--fail-on", "p50 +10000%"]);
      assertEquals(flagged.code, 8, flagged.stdout + flagged.stderr);
      assert(/paired but flagged: .*(server|generator)-bound/.test(flagged.stdout), flagged.stdout);
      assert(
        /"p50 \+10000%" checked no run: every paired run is flagged/.test(flagged.stdout),
        flagged.stdout,
      );
    });
  } finally {
    await t.close();
  }
});
