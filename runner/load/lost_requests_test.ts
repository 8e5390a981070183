/**
 * No request is lost at the start of an open run: the shape of a cache-burst run (the generator's
 * warm-up against its sink, then per-arrival or pooled connections at a low rate against a real Hono
 * server), repeated, with this isolate's blocking thread pool full while the warm-up ends. A full pool
 * makes certain what a busy machine makes likely: the warm-up loop's last idle wait (a nonblocking FFI
 * call naming its epoll set by number) starts late. Before the fix the run's loop got that number and
 * the late wait took its first connect and response events, so the first requests of the run hung
 * until their timeout. The load runs in this isolate (`prepareLoad`, as a worker runs it) so the test
 * can fill the pool the load uses. Asserts every send answered, never a speed; about 20 s in all.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Hono } from "hono";
import { type AttackConfigInput, parseAttackConfig } from "../config.ts";
import { epollBlocker } from "../http/transport/choice.ts";
import type { IntervalSample } from "../stats/sample.ts";
import { prepareLoad } from "./run_load.ts";

const epollIgnored = epollBlocker(new URL("http://127.0.0.1/")) !== null;
/** More sleeps than the pool's 32 threads, long enough to cover the warm-up's end and t0. */
const POOL_SLEEPS = 48;
const SLEEP_US = 300_000;
const ROUNDS = 3;
const RATE_PER_SEC = 10;
const RUN_MS = 1_000;

function startTarget() {
  const app = new Hono().get("/home", (c) => c.text("home"));
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
}

/** One run of the load in this isolate; resolves with its totals. */
async function runHere(config: AttackConfigInput) {
  const samples: IntervalSample[] = [];
  const prepared = await prepareLoad({
    config: parseAttackConfig(config),
    workerIndex: 0,
    workerCount: 1,
    onSamples: (s) => samples.push(...s),
  });
  await prepared.start(performance.now() + 20).done;
  const errors: Record<string, number> = {};
  const messages = new Set<string>();
  for (const s of samples) {
    for (const [kind, n] of Object.entries(s.errors)) errors[kind] = (errors[kind] ?? 0) + (n ?? 0);
    for (const byMessage of Object.values(s.errorMessages)) {
      Object.keys(byMessage).forEach((m) => messages.add(m));
    }
  }
  return { requests: samples.reduce((a, s) => a + s.requests, 0), errors, messages: [...messages] };
}

for (const transport of ["epoll", "deno"] as const) {
  for (const connection of ["per-arrival", "keep-alive"] as const) {
    Deno.test({
      name:
        `rate ${connection} [${transport}]: no request lost after the warm-up while the thread pool is late`,
      ignore: transport === "epoll" && epollIgnored,
      async fn() {
        const server = startTarget();
        const lib = Deno.dlopen("libc.so.6", {
          usleep: { parameters: ["u32"], result: "i32", nonblocking: true },
        });
        try {
          for (let round = 0; round < ROUNDS; round++) {
            const sleeps = Array.from({ length: POOL_SLEEPS }, () => lib.symbols.usleep(SLEEP_US));
            const r = await runHere({
              url: `http://127.0.0.1:${server.addr.port}/home`,
              model: "rate",
              phases: [{ durationMs: RUN_MS, ratePerSec: RATE_PER_SEC }],
              connection,
              transport,
              timeoutMs: 3_000,
              gracefulStopMs: 3_000,
              intervalMs: 250,
            });
            await Promise.all(sleeps);
            const expected = RATE_PER_SEC * RUN_MS / 1000;
            assertEquals(
              { requests: r.requests, errors: r.errors },
              { requests: expected, errors: {} },
              r.messages.join("; "),
            );
          }
        } finally {
          lib.close();
          await server.shutdown();
        }
      },
    });
  }
}
