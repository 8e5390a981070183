/**
 * @module
 * The gate as a CI team meets it, end to end with real runs of the built-in target (`/sleep?ms=` answers
 * after the time asked; `/sleep?ms=oops` is a 400 at once): a baseline of other requests (another path)
 * is not comparable, a baseline whose every answer failed fails no latency or rate rule, and a zero
 * tolerance ("p50 +0%") fails a change beyond noise instead of never firing. Beside two busy loops
 * (killed in a `finally`, checked ended) the same build never exits 7 and an eight times slower one never
 * 0, and `loadlab gate` over the saved folders exits as the live runs did, writing `GITHUB_OUTPUT`. Loads
 * are 3 s on 4 connections on 127.0.0.1, at most two at once; only exit codes and reasons are asserted,
 * never a speed.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { runLoadlab, withTempDir } from "./helpers.ts";

const EXPERIMENT = `
name: trial
targets:
  app: { kind: builtin }
loads:
  steady: { model: connections, connections: 4, duration: 3s, requests: ["/sleep?ms=5"] }
interval: 100ms
`;

/** Runs the experiment with `requests` in place of the file's, into `dir/out`, with `extra` flags. */
async function trial(dir: string, out: string, requests: string, extra: string[] = []) {
  const set = ["--set", `loads.steady.requests=${JSON.stringify([requests])}`];
  return await runLoadlab(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/${out}`, ...set, ...extra]);
}

Deno.test("gate trial: other requests, a broken baseline and a zero tolerance", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/exp.yaml`, EXPERIMENT);
    const gate = (
      rules: string[],
      baseline = `${dir}/base`,
    ) => ["--baseline", baseline, ...rules.flatMap((r) => ["--fail-on", r])];
    const [base, broken] = await Promise.all([
      trial(dir, "base", "/sleep?ms=5"),
      trial(dir, "broken", "/sleep?ms=oops"),
    ]);
    assertEquals(base.code, 0, base.stdout + base.stderr);
    assertEquals(broken.code, 0, broken.stdout + broken.stderr);
    const [other, zero, healthy] = await Promise.all([
      trial(dir, "other", "/json", gate(["rps -10%"])),
      trial(dir, "zero", "/sleep?ms=40", gate(["p50 +0%"])),
      trial(dir, "healthy", "/sleep?ms=5", gate(["p50 +10%"], `${dir}/broken`)),
    ]);

    // Another path is another measurement: not judged (exit 8), never a pass on /json's faster answers.
    assertEquals(other.code, 8, other.stdout + other.stderr);
    assert(
      other.stdout.includes(`not comparable: the loads differ (requestMix ["GET /sleep"] → ["GET /json"])`),
      other.stdout,
    );

    // An eight times slower build against "+0%": any change beyond noise fails it (7), else not judged (8).
    assert([7, 8].includes(zero.code), zero.stdout + zero.stderr);
    if (zero.code === 7) assert(zero.stdout.includes("FAILS p50 +0%"), zero.stdout);

    // A baseline whose every answer was a 400 measured failed answers: a healthy run is not worse than it.
    assertEquals(healthy.code, 8, healthy.stdout + healthy.stderr);
    assert(/"p50 \+10%" checked no run: .*baseline: no success/.test(healthy.stdout), healthy.stdout);
  });
});

/** Two busy loops, one per core, as a CI runner's noisy neighbours; `stop` ends them and waits for both. */
function busyLoops() {
  const loops = [0, 1].map(() => new Deno.Command("sh", { args: ["-c", "while :; do :; done"] }).spawn());
  return {
    async stop() {
      for (const loop of loops) loop.kill("SIGKILL");
      const ended = await Promise.all(loops.map((loop) => loop.status));
      assert(ended.every((s) => s.signal === "SIGKILL"), "no busy loop survives the test");
    },
  };
}

Deno.test("gate trial: beside busy loops, the same build never fails and a slower one never passes", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/exp.yaml`, EXPERIMENT);
    const base = await trial(dir, "base", "/sleep?ms=5");
    assertEquals(base.code, 0, base.stdout + base.stderr);
    const rules = ["--baseline", `${dir}/base`, "--fail-on", "p50 +20%, p99 +50%"];
    const busy = busyLoops();
    let same, slower;
    try {
      [same, slower] = await Promise.all([
        trial(dir, "same", "/sleep?ms=5", rules),
        trial(dir, "slower", "/sleep?ms=40", rules),
      ]);
    } finally {
      await busy.stop();
    }
    // The same build is never worse than itself (0, or 8 saying why); eight times slower is never a pass.
    assert([0, 8].includes(same.code), same.stdout + same.stderr);
    assert([7, 8].includes(slower.code), slower.stdout + slower.stderr);
    // `loadlab gate` over the saved files reaches the same exit, and writes it for a later CI step.
    for (const [name, live] of [["same", same], ["slower", slower]] as const) {
      const outputs = `${dir}/${name}.outputs`;
      const again = await runLoadlab(["gate", `${dir}/${name}`, ...rules], { GITHUB_OUTPUT: outputs });
      assertEquals(again.code, live.code, again.stdout + again.stderr);
      const verdict = { 0: "passed", 7: "failed", 8: "not-judged" }[live.code as 0 | 7 | 8];
      assert((await Deno.readTextFile(outputs)).startsWith(`gate=${verdict}\n`));
    }
  });
});
