/**
 * A flow's ws steps against a server that floods its WebSocket (unsolicited messages as fast as it can
 * write, none of which a step's `match` takes, queued during a think step before it), on both transports,
 * ws: and wss:: the session's reads give the event loop its turns (the same read budget as `attack ws://`)
 * and its queue holds a bounded number of messages, so the step's own timeout is counted
 * under its endpoint and the run ends within its duration, timeout and graceful stop (and slack for a
 * busy machine). Raw server on 127.0.0.1, a run of 1.5 s; bounds only, no speed asserted.
 */
import { writeAll } from "../../system/write_all.ts";
import { ok } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../config.ts";
import { runAttack } from "../attack.ts";
import { epollBlocker } from "../http/transport/choice.ts";
import { selfSignedPair } from "../../targets/tls_cert.ts";
import { answer101, readUpgrade } from "../../tests/fixtures/ws_upgrade.ts";
import { acceptEach } from "../../tests/fixtures/accept_each.ts";

const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
const DURATION_MS = 1_500;
const STEP_TIMEOUT_MS = 200;
const TIMEOUT_MS = 800;
const GRACEFUL_STOP_MS = 500;
/** What the run may take, and 4 s of slack for a busy machine; a starved worker took many seconds more. */
const BOUND_MS = DURATION_MS + TIMEOUT_MS + GRACEFUL_STOP_MS + 4_000;

const PAIR = await selfSignedPair();
const CA_FILE = await Deno.makeTempFile({ prefix: "loadlab-wsflow-flood-ca-", suffix: ".pem" });
await Deno.writeTextFile(CA_FILE, PAIR.caPem);
addEventListener("unload", () => Deno.removeSync(CA_FILE));

/** 21,845 text messages of "x" (64 KiB less a byte: whole frames), none of which any step matches. */
const FLOOD = Uint8Array.from({ length: 3 * 21_845 }, (_, i) => [0x81, 0x01, 0x78][i % 3]);

/** A text message's first frame, then empty continuation frames without end (a fragment flood). */
const FRAGMENTS = new Uint8Array(64 * 1024);

/** Answers the handshake, writes `first`, then `flood` until the client goes. */
async function serve(conn: Deno.Conn, first: Uint8Array, flood: Uint8Array): Promise<void> {
  const key = await readUpgrade(conn);
  if (key === null) return;
  await writeAll(conn, answer101(key));
  await writeAll(conn, first);
  while (true) await writeAll(conn, flood);
}

async function floodedFlow(transport: "deno" | "epoll", tls: boolean, first: Uint8Array, flood: Uint8Array) {
  const listener: Deno.Listener<Deno.Conn, Deno.NetAddr> = tls
    ? Deno.listenTls({ hostname: "127.0.0.1", port: 0, cert: PAIR.certPem, key: PAIR.keyPem })
    : Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const server = acceptEach(listener, (conn) => serve(conn, first, flood));
  const nowEpochMs = () => performance.timeOrigin + performance.now();
  let startedEpochMs = nowEpochMs();
  try {
    const r = await runAttack(
      parseAttackConfig({
        url: `${tls ? "https" : "http"}://127.0.0.1:${listener.addr.port}/`,
        model: "connections",
        connections: 1,
        durationMs: DURATION_MS,
        timeoutMs: TIMEOUT_MS,
        gracefulStopMs: GRACEFUL_STOP_MS,
        transport,
        generatorWarmup: false,
        ...(tls ? { tls: { caFile: CA_FILE } } : {}),
        flows: [{
          name: "f",
          steps: [
            { ws: { connect: "/ws" } },
            // Meanwhile the flood queues for the next step: bounded by what holding a message costs.
            { thinkMs: 300 },
            { ws: { send: "hi", match: { contains: "never" }, name: "wait", timeoutMs: STEP_TIMEOUT_MS } },
          ],
        }],
      } as AttackConfigInput),
      { onStart: (startAtEpochMs) => startedEpochMs = startAtEpochMs },
    );
    return { r, tookMs: nowEpochMs() - startedEpochMs };
  } finally {
    await server.close();
  }
}

for (const transport of ["deno", "epoll"] as const) {
  for (const tls of [false, true]) {
    Deno.test({
      name: `${transport}: a flood no step matches: the step's timeout is counted, the run ends on time [${
        tls ? "wss" : "ws"
      }]`,
      ignore: transport === "epoll" && EPOLL_BLOCKER !== null,
      sanitizeOps: false,
      sanitizeResources: false,
      async fn() {
        const { r, tookMs } = await floodedFlow(transport, tls, new Uint8Array(0), FLOOD);
        ok(tookMs < BOUND_MS, `a run of ${DURATION_MS} ms took ${tookMs.toFixed(0)} ms`);
        ok((r.errors.timeout ?? 0) >= 1, JSON.stringify(r.errors));
        // The flood reached the session, counted unsolicited (how much of it in 1.5 s is the machine's pace).
        ok((r.ws?.unsolicited ?? 0) > 0, JSON.stringify(r.ws));
        ok(r.stuckWorkers === undefined, `stuck workers: ${r.stuckWorkers}`);
        const wait = r.endpoints?.find((e) => e.name === "wait");
        ok((wait?.errors.timeout ?? 0) >= 1, JSON.stringify(r.endpoints));
      },
    });
  }
  Deno.test({
    name: `${transport}: endless empty continuation frames: the waiting step's ws-protocol, on time`,
    ignore: transport === "epoll" && EPOLL_BLOCKER !== null,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const { r, tookMs } = await floodedFlow(transport, false, Uint8Array.of(0x01, 0x00), FRAGMENTS);
      ok(tookMs < BOUND_MS, `a run of ${DURATION_MS} ms took ${tookMs.toFixed(0)} ms`);
      ok((r.errors["ws-protocol"] ?? 0) >= 1 && r.errors.timeout === undefined, JSON.stringify(r.errors));
      const wait = r.endpoints?.find((e) => e.name === "wait");
      ok((wait?.errors["ws-protocol"] ?? 0) >= 1, JSON.stringify(r.endpoints));
    },
  });
}
