/**
 * @module
 * `warmup: auto` on a target whose latency never settles, end to end: a server in this process answers
 * `/drift` after a delay that doubles every half second from its first `/drift` request (2 ms at the
 * start, 128 ms three seconds later; capped), so no stretch at the end of the run is steady and the
 * stabilization finder has nothing to cut at. The run is flagged `warm-up not reached` in results.json
 * and on the terminal (its progress line and the findings), and `--strict` turns that into exit 6. The
 * delay is a function of time, not of the machine's speed, so a busy machine only adds noise far
 * smaller than the drift; nothing is timed. One closed load of 3 s on two connections on 127.0.0.1.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { runLoadlab, withTempDir } from "./helpers.ts";
import type { ResultsFile } from "../results/mod.ts";
import { runVerdict } from "../results/conclude/run_verdict.ts";

/** Answers `/drift` after 2 ms × 2^(seconds since the first `/drift` / 0.5), at most 1 s; others at once. */
function driftingTarget() {
  let firstMs: number | null = null;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (new URL(req.url).pathname !== "/drift") return new Response("ok");
    const now = performance.now();
    firstMs ??= now;
    const delayMs = Math.min(1000, 2 * 2 ** ((now - firstMs) / 500));
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return new Response("drifting");
  });
  return { port: server.addr.port, close: () => server.shutdown() };
}

const experiment = (port: number) => `
name: drifting
targets:
  drifting: { url: "http://127.0.0.1:${port}" }
loads:
  closed: { model: connections, connections: 2, duration: 3s, gracefulStop: 2s, requests: [/drift] }
warmup: auto
interval: 100ms
`;

Deno.test("warmup: auto on a latency that keeps growing: 'warm-up not reached' in results and terminal", async () => {
  const target = driftingTarget();
  try {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(`${dir}/drift.yaml`, experiment(target.port));
      const r = await runLoadlab(["run", `${dir}/drift.yaml`, "--out-dir", `${dir}/out`, "--strict"]);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
      const run = results.runs[0];
      assertEquals(run.warmupNotReached, true, JSON.stringify(run.intervals.map((iv) => iv.p50)));
      assertEquals(run.stabilizedAtMs, null);
      const verdict = runVerdict(run);
      assert(verdict.flags.some((f) => f.kind === "warm-up not reached"), verdict.label);
      // The progress line ends with the verdict, and the findings name the flagged run.
      assert(r.stdout.includes(`[${verdict.label}]`), r.stdout);
      assert(/Findings:[\s\S]*warm-up not reached/.test(r.stdout), r.stdout);
      assertEquals(r.code, 6, r.stderr);
      assert(r.stderr.includes(`--strict: run ${run.name} is flagged: ${verdict.label}`), r.stderr);
    });
  } finally {
    await target.close();
  }
});
