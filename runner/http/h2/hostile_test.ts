/**
 * The engine's HTTP/2 client against the hostile h2 server fixture (tests/fixtures/h2_hostile_server.ts),
 * one misbehaviour per server, on both transports: every mode ends in bounded time with what happened
 * counted under its kind (`h2-protocol`, `h2-refused-stream`, `goaway`, `timeout`, `closed-early`; a stream
 * a GOAWAY refused is re-sent and counted as `retried`),
 * never a crash or a hang, and the client says what it should to the server (GOAWAY with the right code);
 * and flow control: responses far larger than the smallest window, reopened by WINDOW_UPDATE.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../../config.ts";
import { runAttack } from "../../attack.ts";
import type { RunResult } from "../../../results/mod.ts";
import { epollBlocker, uringBlocker } from "../transport/choice.ts";
import {
  type H2HostileMode,
  PING_FLOOD_COUNT,
  startH2HostileServer,
} from "../../../tests/fixtures/h2_hostile_server.ts";
import { COMPRESSION_ERROR, FRAME_SIZE_ERROR, PROTOCOL_ERROR } from "../../../http2/frames.ts";
import { keepLoadWorkers } from "../../worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
const URING_BLOCKER = uringBlocker(new URL("http://127.0.0.1/"), { closedModel: true });
/** Longest a run may take: its 600 ms, the graceful stop, the workers' start on a busy machine. */
const BOUND_MS = 15_000;

async function attackMode(
  mode: H2HostileMode,
  transport: "deno" | "epoll" | "io_uring",
  extra: Partial<AttackConfigInput> = {},
): Promise<{ r: RunResult; server: ReturnType<typeof startH2HostileServer> }> {
  const server = startH2HostileServer(mode);
  const started = performance.now();
  try {
    const r = await runAttack(parseAttackConfig({
      url: `${server.origin}/`,
      model: "connections",
      connections: 2,
      durationMs: 600,
      protocol: "h2c",
      streams: 2,
      timeoutMs: 300,
      gracefulStopMs: 300,
      // Counts and error kinds are judged here, not latency: the generator's warm-up (tested on its own)
      // would only add time to each case.
      generatorWarmup: false,
      transport,
      ...extra,
    } as AttackConfigInput));
    ok(performance.now() - started < BOUND_MS, `${mode}: the run ended in bounded time`);
    return { r, server };
  } finally {
    await server.close();
  }
}

const count = (r: RunResult, kind: string) => (r.errors as Record<string, number>)[kind] ?? 0;
const messages = (r: RunResult, kind: string) =>
  Object.keys((r.errorMessages as Record<string, Record<string, number>>)[kind] ?? {}).join(" | ");

/** What each mode must come to; `goawayCode`: the GOAWAY the client must have sent the server. */
const EXPECT: Array<[H2HostileMode, (r: RunResult) => void, number?]> = [
  ["ok", (r) => assertEquals([r.requests > 0, Object.keys(r.errors)], [true, []])],
  ["unknown-frame", (r) => assertEquals([r.requests > 0, Object.keys(r.errors)], [true, []])],
  ["data-on-stream-0", (r) => ok(count(r, "h2-protocol") > 0, messages(r, "h2-protocol")), PROTOCOL_ERROR],
  ["oversized-frame", (r) => ok(count(r, "h2-protocol") > 0), FRAME_SIZE_ERROR],
  ["bad-settings-length", (r) => ok(count(r, "h2-protocol") > 0), FRAME_SIZE_ERROR],
  ["bad-hpack", (r) => ok(count(r, "h2-protocol") > 0), COMPRESSION_ERROR],
  ["uppercase-header", (r) => ok(count(r, "h2-protocol") > 0 && r.requests === 0)],
  [
    "huge-headers",
    (r) => ok(/max-header-bytes/.test(messages(r, "h2-protocol")), messages(r, "h2-protocol")),
  ],
  ["window-closed", (r) => assertEquals([r.requests > 0, Object.keys(r.errors)], [true, []])],
  ["silent", (r) => ok(count(r, "timeout") > 0 && r.requests === 0, JSON.stringify(r.errors))],
  [
    "goaway",
    (r) => ok(r.requests > 0 && r.reconnects > 0, `${r.requests} answered, ${r.reconnects} reconnects`),
  ],
  [
    "goaway-storm",
    (r) => ok((r.retried ?? 0) > 0 && r.requests === 0, `retried ${r.retried}, ${JSON.stringify(r.errors)}`),
  ],
  [
    "refuse-stream",
    // Each request is sent again 3 times (counted `retried`), then counted once as refused (the stop may
    // cut one between its re-sends: counted unfinished, its re-sends retried).
    (r) =>
      ok(
        count(r, "h2-refused-stream") > 0 && r.requests === 0 &&
          (r.retried ?? 0) >= 3 * count(r, "h2-refused-stream") &&
          /refused 4 times/.test(messages(r, "h2-refused-stream")),
        `retried ${r.retried}, ${JSON.stringify(r.errorMessages)}`,
      ),
  ],
  ["ping-flood", (r) => ok(r.requests > 0, JSON.stringify(r.errors))],
  ["close-mid-stream", (r) => ok(count(r, "closed-early") > 0 && r.requests === 0, JSON.stringify(r.errors))],
];

for (const transport of ["deno", "epoll", "io_uring"] as const) {
  for (const [mode, check, goawayCode] of EXPECT) {
    Deno.test({
      name: `h2 client vs a hostile server: ${mode} is counted, bounded [${transport}]`,
      ignore: (transport === "epoll" && EPOLL_BLOCKER !== null) ||
        (transport === "io_uring" && URING_BLOCKER !== null),
      async fn() {
        // One stream per connection where the server's misbehaviour is per stream and another stream's
        // frames would end the connection first (HEADERS of stream 3 inside stream 1's endless block).
        const { r, server } = await attackMode(
          mode,
          transport,
          mode === "huge-headers" ? { streams: 1 } : {},
        );
        check(r);
        assertEquals(r.protocol, "h2c");
        if (mode === "ping-flood") {
          // PINGs acknowledged, never more ACKs than PINGs sent (a flood before each request's answer). How
          // many of the last flood's ACKs the server reads before the run ends depends on the machine's load.
          const { pingAcks, requests } = server.received;
          ok(
            pingAcks > 0 && pingAcks <= PING_FLOOD_COUNT * requests,
            `${pingAcks} PING ACKs, ${requests} requests`,
          );
        }
        if (goawayCode !== undefined) {
          ok(server.received.goaway.includes(goawayCode), `GOAWAY sent: ${server.received.goaway}`);
        }
      },
    });
  }

  Deno.test({
    name: `h2 client: a request body behind a window that never opens times out, counted [${transport}]`,
    ignore: (transport === "epoll" && EPOLL_BLOCKER !== null) ||
      (transport === "io_uring" && URING_BLOCKER !== null),
    async fn() {
      const body = new TextEncoder().encode("x".repeat(100));
      const { r } = await attackMode("window-closed", transport, {
        requestMix: [{ method: "POST", path: "/", body }],
      });
      // The first streams of a connection may go out before the server's SETTINGS shrink the window (the
      // default 65,535 applies until then, RFC 9113 6.9.2) and be answered; every one after waits.
      ok(count(r, "timeout") > 0, `${r.requests} answered, ${JSON.stringify(r.errors)}`);
    },
  });
}

for (const transport of ["deno", "epoll", "io_uring"] as const) {
  Deno.test({
    name:
      `h2 client: 1 MiB responses through the smallest window (64 KiB) are reopened by WINDOW_UPDATE [${transport}]`,
    ignore: (transport === "epoll" && EPOLL_BLOCKER !== null) ||
      (transport === "io_uring" && URING_BLOCKER !== null),
    async fn() {
      const body = new Uint8Array(1 << 20).fill(97);
      const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response(body));
      try {
        const r = await runAttack(parseAttackConfig({
          url: `http://127.0.0.1:${server.addr.port}/`,
          model: "count",
          requests: 20,
          connections: 2,
          protocol: "h2c",
          streams: 2,
          h2WindowBytes: 65_535,
          timeoutMs: 5_000,
          // Counts and error kinds are judged here, not latency: the generator's warm-up (tested on its own)
          // would only add time to each case.
          generatorWarmup: false,
          transport,
        }));
        assertEquals([r.requests, r.errors], [20, {}]);
        ok(r.bytesRead >= 20 * (1 << 20), `${r.bytesRead} bytes read`);
      } finally {
        await server.shutdown();
      }
    },
  });
}
