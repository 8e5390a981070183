/**
 * @module
 * A paced session's latency is the target's over HTTP/1.1, whatever the session did before its request: a
 * session script (a random think time, then one GET, a check and a timer of its own), a k6 user converted
 * (GET, check, sleep) and a flow (think, GET, think, GET) on two connections against the real built-in
 * target, on the epoll transport, on Deno's own and on io_uring (where the kernel allows a ring), each held
 * at p50 to the target's own round trip timed beside it by a plain keep-alive socket at the same pace
 * (paced_rows.ts). Beside them an open load's script that thinks before its first request: that request is
 * timed from the arrival's schedule plus the think time, never charged for the think. Each run is about a
 * second.
 */
import { ok } from "node:assert/strict";
import { startTarget } from "../../targets/start.ts";
import { parseAttackConfig } from "../../runner/config.ts";
import { runAttack } from "../../runner/attack.ts";
import { sessionScriptPath } from "../../runner/script/k6/convert/converted_file.ts";
import { uringUnavailableReason } from "../../runner/http/transport/uring/ring.ts";
import { checkRows, h1Reference, type PacedRow } from "./paced_rows.ts";

const PATH = "/json";
const script = new URL("../fixtures/scripts/paced_get.ts", import.meta.url).pathname;
const k6Script = new URL("../fixtures/k6/paced_get.js", import.meta.url).pathname;
Deno.env.set("XDG_CACHE_HOME", Deno.makeTempDirSync({ prefix: "loadlab-k6-cache-" }));

/** Think, GET, think, GET: each request goes out after a timer (the first a leading think). */
const flow = {
  name: "paced",
  weight: 1,
  steps: [
    { thinkMs: 13 },
    { request: { method: "GET", path: PATH, headers: [], weight: 1 } },
    { thinkMs: 21 },
    { request: { method: "GET", path: PATH, headers: [], weight: 1 } },
  ],
};

Deno.test("paced scripts, k6 scripts and flows over HTTP/1.1 read the target's own latency at p50", async () => {
  const target = await startTarget({ kind: "builtin" });
  try {
    const uring = uringUnavailableReason();
    if (uring !== null) console.log(`io_uring rows skipped: ${uring}`);
    const transports = uring === null ? ["epoll", "deno", "io_uring"] as const : ["epoll", "deno"] as const;
    const reference = h1Reference(target.url, PATH);
    const sessions = [
      ["script", { script: { path: script } }],
      ["k6 script", {
        script: {
          path: sessionScriptPath(k6Script),
          routes: { "http://app.test": new URL(target.url).origin },
        },
      }],
      ["flow", { flows: [flow] }],
    ] as const;
    // A k6 script is a script to the transports: its rows are the runtime's, on the two main ones.
    const rows: PacedRow[] = sessions.flatMap(([kind, load]) =>
      transports.filter((t) => kind !== "k6 script" || t !== "io_uring").map((transport) => ({
        name: `http1 ${kind} on ${transport}`,
        input: { url: target.url, transport, ...load },
        reference,
      }))
    );
    await checkRows(rows);
  } finally {
    await target.stop();
  }
});

Deno.test("an open arrival's script is not charged for its think time before its first request", async () => {
  const target = await startTarget({ kind: "builtin" });
  try {
    const run = await runAttack(parseAttackConfig({
      url: target.url,
      model: "rate",
      phases: [{ durationMs: 1_000, ratePerSec: 20 }],
      generatorWarmup: false,
      script: { path: new URL("../fixtures/scripts/think_first.ts", import.meta.url).pathname },
    }));
    // Its lateness against the schedule still counts; the 60 ms the script slept first does not.
    ok(run.requests >= 10, `${run.requests} requests`);
    // Charged, every latency would be past 60 ms; a busy core's wait stays well under it.
    ok(run.latencyMs.p50 < 50, `p50 ${run.latencyMs.p50} ms: the 60 ms think time was charged`);
  } finally {
    await target.stop();
  }
});
