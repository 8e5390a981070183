/**
 * @module
 * Truth table, a crowd of fixed requests that saturates its generator, on every transport: 5,000
 * keep-alive connections on one load worker against nginx with two workers (more room than the
 * generator's one core, on an idle machine or a busy one: nginx spends about half the CPU per request
 * loadlab does). On epoll and io_uring its timers run on time (the pump yields every 5 ms), so only the
 * responses' wait says it: each one that reached the kernel waits, most of the latency, for the worker to
 * read it. Each transport measures that wait its own way (epoll a timerfd in its set, io_uring a timeout
 * in its ring, deno a timer's lateness on the event loop that hands it the reads) into one series. The
 * run must read `generator-bound` with that wait in words, recorded per interval (`readyWaitMs`). Its twin
 * is the same crowd shape against a slow server (the built-in /sleep, 100 ms, 1,000 connections): the
 * requests wait at the server, the worker reads each answer at once, and the run is not generator-bound.
 * Skipped with its reason where nginx is missing (required under CI=true), and on io_uring where the
 * kernel refuses a ring (required under CI=true too: a CI image whose kernel has it must run it).
 * Bounded: 3 s of load each (4 s for deno's saturated crowd).
 */
import assert from "node:assert/strict";
import { requireProgram, runLoadlab, withTarget, withTempDir } from "../helpers.ts";
import type { RunResult } from "../../results/mod.ts";
import { runVerdict } from "../../results/conclude/run_verdict.ts";
import { OWN_QUEUE_MIN_MS, QUEUED_SHARE } from "../../results/conclude/generator_saturation.ts";
import { startNginx } from "../../bench/nginx.ts";
import { uringBlocker } from "../../runner/http/transport/choice.ts";

const TRANSPORTS = ["epoll", "io_uring", "deno"] as const;
type Kind = typeof TRANSPORTS[number];
/**
 * The saturating crowd and its run on each transport: deno's sockets cost the worker several times what
 * the others' do, so a smaller crowd saturates it, and it opens its whole crowd before the first send
 * (1-2.5 s of 5,000 with both cores busy), so its run is longer for intervals with answers to judge.
 */
const CROWD: Record<Kind, { connections: number; duration: string }> = {
  epoll: { connections: 5000, duration: "3s" },
  io_uring: { connections: 5000, duration: "3s" },
  deno: { connections: 3000, duration: "4s" },
};

/**
 * Whether `transport` can run here: io_uring only where the kernel makes its ring (printed, or thrown on CI).
 */
function available(transport: Kind): boolean {
  if (transport !== "io_uring") return true;
  const why = uringBlocker(new URL("http://127.0.0.1/"), { closedModel: true });
  if (why === null) return true;
  if (Deno.env.get("CI") === "true") throw new Error(`io_uring is required on CI (CI=true): ${why}`);
  console.log(`skipped: io_uring unavailable here (${why})`);
  return false;
}

/** `attack` of `url` with `connections` on one worker for `duration` over `transport`; its one run. */
async function attack(dir: string, url: string, connections: number, transport: Kind, duration = "3s") {
  const out = `${dir}/results-${connections}.json`;
  const r = await runLoadlab([
    "attack",
    url,
    ...["-c", `${connections}`, "-d", duration, "-w", "1", "--timeout", "20s", "--transport", transport],
    ...["-o", out],
  ]);
  const file = JSON.parse(await Deno.readTextFile(out));
  const run: RunResult = file.runs?.[0] ?? file;
  // A fallback would judge another transport's probe: the run must be on the one asked for.
  assert.equal(run.transport, transport, run.transportFallback);
  return { ...r, run };
}

for (const transport of TRANSPORTS) {
  Deno.test({
    name:
      `truth table: a crowd of fixed requests whose worker holds the answers reads generator-bound (${transport})`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      if (!requireProgram("nginx") || !available(transport)) return;
      const nginx = await startNginx("nginx", [], undefined, false, 8192, 2);
      try {
        await withTempDir(async (dir) => {
          const { connections, duration } = CROWD[transport];
          const r = await attack(dir, nginx.url, connections, transport, duration);
          assert.equal(r.code, 0, r.stderr);
          const { label } = runVerdict(r.run);
          assert.equal(r.run.generatorBound, true, `${label}\n${r.stdout}`);
          assert.match(label, /^generator-bound: load worker saturated in \d+ of \d+ intervals/);
          assert.match(r.stdout, /a received response waited \d+ ms for it on average, the median latency/);
          // The evidence is in results.json: intervals whose answers waited for the worker past the floor.
          const waited = r.run.intervals.filter((iv) =>
            (iv.readyWaitMs ?? 0) >= OWN_QUEUE_MIN_MS && (iv.readyWaitMs ?? 0) >= QUEUED_SHARE * iv.p50
          );
          assert.ok(waited.length >= 2, JSON.stringify(r.run.intervals.map((iv) => iv.readyWaitMs)));
        });
      } finally {
        await nginx.stop();
      }
    },
  });

  Deno.test({
    name:
      `truth table: a crowd held by a slow server is not generator-bound, its answers read at once (${transport})`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      if (!available(transport)) return;
      await withTarget((url) =>
        withTempDir(async (dir) => {
          const r = await attack(dir, `${url}/sleep?ms=100`, 1000, transport);
          assert.equal(r.code, 0, r.stderr);
          const { label } = runVerdict(r.run);
          assert.equal(r.run.generatorBound, false, `${label}\n${r.stdout}`);
          assert.doesNotMatch(label, /generator-bound/);
          // Measured, and far below the latency the server sets: the answers did not wait for the worker.
          const probed = r.run.intervals.filter((iv) => iv.readyWaitMs !== undefined && iv.p50 > 0);
          assert.ok(probed.length >= 2, JSON.stringify(r.run.intervals));
          const waitedMs = probed.reduce((sum, iv) => sum + iv.readyWaitMs!, 0) / probed.length;
          const p50Ms = probed.reduce((sum, iv) => sum + iv.p50, 0) / probed.length;
          assert.ok(waitedMs < p50Ms / 2, `${waitedMs} ms of ${p50Ms} ms`);
        })
      );
    },
  });
}
