/**
 * @module
 * Truth table, a crowd that takes several intervals to open: 4,000 keep-alive connections on one worker
 * against the built-in target, 50 ms intervals. On epoll and io_uring each connection starts its closed
 * loop as soon as it is open, as wrk's do: answers come in while the crowd is still opening, and the
 * summary says when the whole crowd was open and what the intervals before it ran (or, both cores busy,
 * that it was still opening at the end and how many the run held). On the deno
 * transport (whose connects starve once traffic runs) the whole crowd opens first: the intervals before
 * it answered nothing, and the summary says they were its connects, not the server's silence (2,000
 * connections over 2 s there: its connects are slower). io_uring is skipped with its reason where the
 * kernel refuses a ring (required under CI=true). Bounded: 1-2 s of load each.
 */
import assert from "node:assert/strict";
import { runLoadlab, withTarget, withTempDir } from "../helpers.ts";
import type { RunResult } from "../../results/mod.ts";
import { crowdOpening } from "../../results/conclude/planned_connections.ts";
import { uringBlocker } from "../../runner/http/transport/choice.ts";

/**
 * `attack -c connections` of the built-in target over `transport` for `duration`, 50 ms intervals; its
 * one run.
 */
async function attack(dir: string, url: string, transport: string, connections = 4000, duration = "1s") {
  const out = `${dir}/results.json`;
  const r = await runLoadlab([
    "attack",
    `${url}/json`,
    ...["-c", `${connections}`, "-d", duration, "-w", "1", "--interval", "50ms", "--timeout", "20s"],
    ...["--transport", transport, "-o", out],
  ]);
  assert.equal(r.code, 0, r.stderr);
  const file = JSON.parse(await Deno.readTextFile(out));
  const run: RunResult = file.runs?.[0] ?? file;
  assert.equal(run.transport, transport, run.transportFallback);
  return { ...r, run };
}

for (const transport of ["epoll", "io_uring"]) {
  Deno.test({
    name: `truth table: a crowd opening over several intervals sends from each connect on (${transport})`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const blocker = transport === "io_uring"
        ? uringBlocker(new URL("http://127.0.0.1/"), { closedModel: true })
        : null;
      if (blocker !== null) {
        if (Deno.env.get("CI") === "true") {
          throw new Error(`io_uring is required on CI (CI=true): ${blocker}`);
        }
        return void console.log(`skipped: io_uring unavailable here (${blocker})`);
      }
      await withTarget((url) =>
        withTempDir(async (dir) => {
          const r = await attack(dir, url, transport);
          const o = crowdOpening(r.run);
          // With both cores busy the crowd may still be opening at the end: then it is said so.
          assert.ok(o !== null, JSON.stringify(r.run.intervals.map((iv) => iv.connections)));
          // Answered while still opening: the first connections did not wait for the last.
          assert.ok(o.answeredBefore > 0, JSON.stringify(o));
          const opened =
            /4,000 connections open at \d+\.\d\d s: the intervals before ran a crowd still opening/;
          const opening = /never all open: at most [\d,]+ of 4,000 connections/;
          assert.match(r.stdout, o.openAtMs === null ? opening : opened);
        })
      );
    },
  });
}

Deno.test({
  name: "truth table: a crowd the deno transport opens before its first send is read as its connects",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withTarget((url) =>
      withTempDir(async (dir) => {
        const r = await attack(dir, url, "deno", 2000, "2s");
        const o = crowdOpening(r.run);
        assert.ok(
          o !== null && o.openAtMs !== null,
          JSON.stringify(r.run.intervals.map((iv) => iv.connections)),
        );
        assert.equal(o.answeredBefore, 0);
        assert.match(
          r.stdout,
          /Crowd: 2,000 connections open at \d+\.\d\d s: the intervals before are its connects/,
        );
      })
    );
  },
});
