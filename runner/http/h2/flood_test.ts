/**
 * @module
 * The engine's HTTP/2 client against servers that flood it with tiny frames as fast as it reads
 * (tests/fixtures/h2_flood_server.ts), on every transport, h2c and over TLS: every run ends within its
 * duration, timeout and graceful stop (plus slack for a busy machine), as the worker's timers and stop
 * message still run while bytes keep coming; an endless header block ends at the CONTINUATION cap as a
 * connection error ENHANCE_YOUR_CALM, named and counted, with GOAWAY sent (seen by the server once it
 * has read each connection to its end).
 */
import { ok } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../../config.ts";
import { runAttack } from "../../attack.ts";
import type { RunResult } from "../../../results/mod.ts";
import { epollBlocker, uringBlocker } from "../transport/choice.ts";
import { ENHANCE_YOUR_CALM } from "../../../http2/frames.ts";
import {
  H2_FLOOD_MODES,
  type H2FloodMode,
  type H2FloodServer,
  startH2FloodServer,
} from "../../../tests/fixtures/h2_flood_server.ts";
import { EPOLL_TLS_BLOCKER, makeTlsFixtures, type TlsFixtures } from "../../../tests/tls_fixtures.ts";
import { requireProgram, withTempDir } from "../../../tests/helpers.ts";
import { keepLoadWorkers } from "../../worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
const URING_BLOCKER = uringBlocker(new URL("http://127.0.0.1/"), { closedModel: true });
const DURATION_MS = 500;
const TIMEOUT_MS = 1_000;
const GRACEFUL_STOP_MS = 500;
/**
 * Certain on a busy machine: 5 s past what the run may take; a starved worker took 12 s to minutes. Timed
 * from the schedule's start: before it, the first worker of a test process is type-checked (seconds on a
 * cold cache under load), which says nothing about how a flood is read.
 */
const BOUND_MS = DURATION_MS + TIMEOUT_MS + GRACEFUL_STOP_MS + 5_000;

/**
 * How long the server may take to read its connections to their end once the client closed them: a bound
 * only a socket left open reaches (reading what a closed one sent takes milliseconds, busy or not).
 */
const SETTLE_MAX_MS = 60_000;

const errorsOf = (r: RunResult) => JSON.stringify(r.errorMessages);
const messages = (r: RunResult, kind: string) =>
  Object.keys((r.errorMessages as Record<string, Record<string, number>>)[kind] ?? {}).join(" | ");

/** What each flood must come to, beside the run's end in time: no answer, and what happened counted. */
const EXPECT: Record<H2FloodMode, (r: RunResult, goaway: number[]) => void> = {
  data: (r) => ok(r.requests === 0 && r.bytesRead > 1_000_000, `${r.bytesRead} bytes read, ${errorsOf(r)}`),
  continuation: (r, goaway) => {
    ok(/ENHANCE_YOUR_CALM: more than \d+ CONTINUATION frames/.test(messages(r, "h2-protocol")), errorsOf(r));
    ok(goaway.includes(ENHANCE_YOUR_CALM), `GOAWAY sent: ${goaway}`);
  },
  interim: (r) => ok(r.requests === 0, errorsOf(r)),
  ping: (r) => ok(r.requests === 0, errorsOf(r)),
  "window-update": (r) => ok(r.requests === 0, errorsOf(r)),
};

async function floodRun(
  mode: H2FloodMode,
  transport: "deno" | "epoll" | "io_uring",
  tls: TlsFixtures | null,
): Promise<void> {
  const server = startH2FloodServer(
    mode,
    tls === null ? undefined : {
      cert: await Deno.readTextFile(tls.serverCert),
      key: await Deno.readTextFile(tls.serverKey),
    },
  );
  try {
    const nowEpochMs = () => performance.timeOrigin + performance.now();
    let startedEpochMs = nowEpochMs();
    const r = await runAttack(
      parseAttackConfig({
        url: `${server.origin}/`,
        model: "connections",
        connections: 2,
        durationMs: DURATION_MS,
        protocol: tls === null ? "h2c" : "h2",
        timeoutMs: TIMEOUT_MS,
        gracefulStopMs: GRACEFUL_STOP_MS,
        transport,
        ...(tls === null ? {} : { tls: { caFile: tls.ca } }),
      } as AttackConfigInput),
      { onStart: (startAtEpochMs) => startedEpochMs = startAtEpochMs },
    );
    const tookMs = nowEpochMs() - startedEpochMs;
    ok(server.flooded > 0, `${mode}: the server flooded no connection: ${errorsOf(r)}`);
    ok(tookMs < BOUND_MS, `${mode}: a run of ${DURATION_MS} ms took ${tookMs.toFixed(0)} ms`);
    // The client has closed every connection; the server may not have read their last frames yet (a
    // GOAWAY sent just before the run ended). Read to the end, every GOAWAY sent is counted.
    ok(await settledWithin(server, SETTLE_MAX_MS), `${mode}: connections still open after the run`);
    EXPECT[mode](r, server.goaway);
  } finally {
    await server.close();
  }
}

/** True once every connection of `server` has ended, false if one is still open after `ms`. */
async function settledWithin(server: H2FloodServer, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), ms));
  try {
    return await Promise.race([server.settled().then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

for (const transport of ["deno", "epoll", "io_uring"] as const) {
  Deno.test({
    name: `h2c floods of tiny frames end the run on time [${transport}]`,
    ignore: (transport === "epoll" && EPOLL_BLOCKER !== null) ||
      (transport === "io_uring" && URING_BLOCKER !== null),
    async fn(t) {
      for (const mode of H2_FLOOD_MODES) await t.step(mode, () => floodRun(mode, transport, null));
    },
  });

  // io_uring serves plain TCP only: over TLS it runs on epoll, tested above, and its fallback is
  // uring/transport_test's.
  if (transport === "io_uring") continue;
  Deno.test({
    name: `h2 floods of tiny frames over TLS end the run on time [${transport}]`,
    ignore: transport !== "deno" && EPOLL_TLS_BLOCKER !== null,
    async fn(t) {
      if (!requireProgram("openssl")) return;
      await withTempDir(async (dir) => {
        const tls = await makeTlsFixtures(dir);
        for (const mode of H2_FLOOD_MODES) await t.step(mode, () => floodRun(mode, transport, tls));
      });
    },
  });
}
