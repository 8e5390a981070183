/**
 * The engine's WebSocket client against servers that flood it as fast as it reads (endless tiny frames:
 * unsolicited empty messages, pongs), on every transport (Deno sockets, epoll, io_uring), ws: and wss:
 * (Deno's TLS reads resolve at once from what the TLS layer holds): the worker's timers, watchdog and stop
 * still run, so every run ends within its duration, timeout and graceful stop (plus slack for a busy
 * machine); and against a slowloris trickling its 101 one byte at a time, whose handshakes end as timeouts.
 * No speed assertion: bounds only.
 */
import { ok } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../../config.ts";
import { runAttack } from "../../attack.ts";
import { epollBlocker, uringBlocker } from "../transport/choice.ts";
import { selfSignedPair } from "../../../targets/tls_cert.ts";
import { answer101, readUpgrade } from "../../../tests/fixtures/ws_upgrade.ts";
import { acceptEach } from "../../../tests/fixtures/accept_each.ts";
import { keepLoadWorkers } from "../../worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
const URING_BLOCKER = uringBlocker(new URL("http://127.0.0.1/"), { closedModel: true });
const DURATION_MS = 500;
const TIMEOUT_MS = 400;
const GRACEFUL_STOP_MS = 500;
/** What the run may take, and 8 s of slack for a busy machine; a starved worker takes minutes. */
const BOUND_MS = DURATION_MS + TIMEOUT_MS + GRACEFUL_STOP_MS + 8_000;

const PAIR = await selfSignedPair();
const CA_FILE = await Deno.makeTempFile({ prefix: "loadlab-ws-flood-ca-", suffix: ".pem" });
await Deno.writeTextFile(CA_FILE, PAIR.caPem);
addEventListener("unload", () => Deno.removeSync(CA_FILE));

/** 64 KiB of empty frames: `frame` repeated. */
const floodOf = (frame: number[]) =>
  Uint8Array.from({ length: 64 * 1024 }, (_, i) => frame[i % frame.length]);

/**
 * Answers the handshake (at once, or one byte per `trickleMs`), then writes `flood` until the client goes.
 */
async function serve(conn: Deno.Conn, flood: Uint8Array | null, trickleMs: number): Promise<void> {
  const buf = new Uint8Array(16 * 1024);
  const key = await readUpgrade(conn, buf);
  if (key === null) return;
  const answer = answer101(key);
  if (trickleMs > 0) {
    for (const byte of answer) {
      await conn.write(Uint8Array.of(byte));
      await new Promise((resolve) => setTimeout(resolve, trickleMs));
    }
  } else await conn.write(answer);
  while (flood !== null) await conn.write(flood);
  while ((await conn.read(buf)) !== null);
}

async function floodRun(
  transport: "deno" | "epoll" | "io_uring",
  tls: boolean,
  flood: Uint8Array | null,
  trickleMs = 0,
) {
  const listener: Deno.Listener<Deno.Conn, Deno.NetAddr> = tls
    ? Deno.listenTls({ hostname: "127.0.0.1", port: 0, cert: PAIR.certPem, key: PAIR.keyPem })
    : Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const server = acceptEach(listener, (conn) => serve(conn, flood, trickleMs));
  const nowEpochMs = () => performance.timeOrigin + performance.now();
  let startedEpochMs = nowEpochMs();
  try {
    const r = await runAttack(
      parseAttackConfig({
        url: `${tls ? "wss" : "ws"}://127.0.0.1:${listener.addr.port}/ws`,
        model: "connections",
        connections: 2,
        durationMs: DURATION_MS,
        timeoutMs: TIMEOUT_MS,
        gracefulStopMs: GRACEFUL_STOP_MS,
        transport,
        ...(tls ? { tls: { caFile: CA_FILE } } : {}),
        ws: { match: { kind: "json", field: "never", equals: 1 } },
      } as AttackConfigInput),
      { onStart: (startAtEpochMs) => startedEpochMs = startAtEpochMs },
    );
    const tookMs = nowEpochMs() - startedEpochMs;
    ok(tookMs < BOUND_MS, `a run of ${DURATION_MS} ms took ${tookMs.toFixed(0)} ms`);
    ok(r.requests === 0, JSON.stringify(r.errors));
    return r;
  } finally {
    await server.close();
  }
}

for (const transport of ["deno", "epoll", "io_uring"] as const) {
  // io_uring serves plain TCP only: its wss: is epoll's, tested above (the fallback: uring's transport_test).
  for (const tls of transport === "io_uring" ? [false] : [false, true]) {
    Deno.test({
      name: `ws floods of tiny frames end the run on time [${tls ? "wss" : "ws"}, ${transport}]`,
      ignore: (transport === "epoll" && EPOLL_BLOCKER !== null) ||
        (transport === "io_uring" && URING_BLOCKER !== null),
      sanitizeOps: false,
      sanitizeResources: false,
      async fn(t) {
        await t.step("empty messages", async () => {
          const r = await floodRun(transport, tls, floodOf([0x82, 0x00]));
          ok((r.ws?.unsolicited ?? 0) > 1000, JSON.stringify(r.ws));
        });
        await t.step("pongs", async () => void await floodRun(transport, tls, floodOf([0x8a, 0x00])));
      },
    });
  }
  Deno.test({
    name: `ws slowloris: a 101 trickled a byte at a time is a timeout, the run ends on time [${transport}]`,
    ignore: (transport === "epoll" && EPOLL_BLOCKER !== null) ||
      (transport === "io_uring" && URING_BLOCKER !== null),
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const r = await floodRun(transport, false, null, 50);
      ok(
        Object.keys(r.errors).every((k) => k === "timeout") && (r.errors.timeout ?? 0) >= 1,
        JSON.stringify(r.errors),
      );
    },
  });
}
