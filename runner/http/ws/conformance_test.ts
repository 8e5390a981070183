/**
 * The engine's WebSocket client against servers of other projects, on both transports, through the
 * whole run (workers, recorder, results): Deno's own `Deno.upgradeWebSocket` here; text, binary,
 * fragmented messages, pings, close codes. Bounded counts (count model), exact results.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../../config.ts";
import { runAttack } from "../../attack.ts";
import type { RunResult } from "../../../results/mod.ts";
import { epollBlocker, uringBlocker } from "../transport/choice.ts";
import { wsLines } from "../../../report/terminal/ws.ts";
import { selfSignedPair } from "../../../targets/tls_cert.ts";
import { keepLoadWorkers } from "../../worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
const URING_BLOCKER = uringBlocker(new URL("http://127.0.0.1/"), { closedModel: true });
const BOUND_MS = 20_000;
const MESSAGES = 40;

/** wss: a throwaway CA and server certificate, the CA in a file for `caFile`. */
const PAIR = await selfSignedPair();
const CA_FILE = await Deno.makeTempFile({ prefix: "loadlab-ws-ca-", suffix: ".pem" });
await Deno.writeTextFile(CA_FILE, PAIR.caPem);
addEventListener("unload", () => Deno.removeSync(CA_FILE));

/**
 * Deno's WebSocket server: echoes every message; `/close-4001` closes with 4001 after one echo. With
 * `tls`, over TLS (wss:) with the throwaway certificate.
 */
function denoServer(tls = false): { url: string; server: Deno.HttpServer } {
  const pem = tls ? { cert: PAIR.certPem, key: PAIR.keyPem } : {};
  const server = Deno.serve({ ...pem, hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    const path = new URL(req.url).pathname;
    // Closes a while after the handshake, whatever the client does: a hold then reconnects.
    if (path === "/bye") socket.onopen = () => setTimeout(() => socket.close(1000, "bye"), 60);
    socket.onmessage = (e) => {
      socket.send(e.data);
      if (path === "/close-4001") socket.close(4001, "done");
      // A broadcast while the client idles: stamped with the server's clock as it goes out.
      if (path === "/later") {
        setTimeout(() => socket.send(`{"sentAt":${performance.timeOrigin + performance.now()}}`), 100);
      }
    };
    return response;
  });
  return { url: `${tls ? "wss" : "ws"}://127.0.0.1:${server.addr.port}`, server };
}

async function attack(
  path: string,
  transport: "deno" | "epoll" | "io_uring",
  extra: Partial<AttackConfigInput> = {},
  tls = false,
) {
  const { url, server } = denoServer(tls);
  const started = performance.now();
  try {
    const r: RunResult = await runAttack(parseAttackConfig({
      url: url + path,
      model: "count",
      connections: 2,
      requests: MESSAGES,
      timeoutMs: 3000,
      // Counts and error kinds are judged here, not latency: the generator's warm-up (tested on its own)
      // would only add time to each case.
      generatorWarmup: false,
      transport,
      ...extra,
    } as AttackConfigInput));
    ok(performance.now() - started < BOUND_MS, "the run ended in bounded time");
    return r;
  } finally {
    await server.shutdown();
  }
}

for (const transport of ["deno", "epoll", "io_uring"] as const) {
  const test = (name: string, fn: () => Promise<void>) =>
    Deno.test({
      name: `ws client vs Deno.upgradeWebSocket: ${name} [${transport}]`,
      ignore: (transport === "epoll" && EPOLL_BLOCKER !== null) ||
        (transport === "io_uring" && URING_BLOCKER !== null),
      sanitizeOps: false,
      sanitizeResources: false,
      fn,
    });

  test("text echo: every message answered, counted each way", async () => {
    const r = await attack("/echo", transport, { ws: { messages: ["hello", "wörld"] } } as never);
    assertEquals([r.requests, r.errors, r.statusCodes], [MESSAGES, {}, {}]);
    assertEquals([r.ws?.messagesSent, r.ws?.messagesReceived, r.ws?.unsolicited], [MESSAGES, MESSAGES, 0]);
    assertEquals(r.ws?.handshakes, 2);
    ok((r.ws?.handshakeMs?.p50 ?? 0) > 0);
  });

  test("permessage-deflate offered to a server without it: the run goes uncompressed and says so", async () => {
    const r = await attack("/echo", transport, { ws: { messages: ["hello"], deflate: true } } as never);
    assertEquals([r.requests, r.errors, r.ws?.deflateOffered, r.ws?.deflateAgreed], [MESSAGES, {}, 2, 0]);
    const lines = wsLines(r, (s) => s).join("\n");
    ok(
      lines.includes("permessage-deflate agreed on 0 of 2 handshakes that offered it; 2 ran uncompressed"),
      lines,
    );
  });

  test("wss: through the TLS path of https, verified with the run's CA", async () => {
    const r = await attack("/echo", transport, { tls: { caFile: CA_FILE } }, true);
    assertEquals([r.requests, r.errors, r.ws?.handshakes], [MESSAGES, {}, 2]);
    ok(r.tls !== undefined, "the TLS session is recorded as for https");
  });

  test("binary, fragmented into 3-byte frames and reassembled by the server", async () => {
    const payload = btoa(String.fromCharCode(...Array.from({ length: 100 }, (_, i) => i)));
    const r = await attack("/echo", transport, {
      ws: { messages: [payload], binary: true, fragmentBytes: 3 },
    } as never);
    assertEquals([r.requests, r.errors], [MESSAGES, {}]);
    assertEquals(r.ws?.payloadBytesReceived, 100 * MESSAGES);
  });

  test("hold: pings answered by pongs", async () => {
    const r = await attack("/echo", transport, { requests: 6, ws: { pingIntervalMs: 20 } } as never);
    assertEquals([r.requests, r.errors, r.ws?.pingsSent, r.ws?.pongsReceived], [6, {}, 6, 6]);
  });

  test("hold: a server's close between pings ends the connection's wait, and it reconnects and holds on", async () => {
    const r = await attack("/bye", transport, { requests: 12, ws: { pingIntervalMs: 25 } } as never);
    ok((r.ws?.handshakes ?? 0) >= 3, `reconnected: ${r.ws?.handshakes} handshakes`);
    // Each connect after a connection's first is counted a reconnect.
    assertEquals(r.reconnects, r.connects - 2, `${r.connects} connects over 2 connections`);
    ok(r.requests >= 1 && r.requests === r.ws?.pongsReceived, `${r.requests} pongs answered`);
    // Every connection but those the count's end found open (two at most) was closed by the server.
    ok((r.ws?.closeCodes["1000"] ?? 0) >= (r.ws?.handshakes ?? 0) - 2, JSON.stringify(r.ws?.closeCodes));
  });

  test("storm: each connection does 4 messages (a think after the first) and closes with 1000", async () => {
    const r = await attack("/echo", transport, {
      requests: 5,
      connections: 1,
      ws: { messagesPerConnection: 4, thinkAfterMs: [15] },
    } as never);
    assertEquals([r.requests, r.errors, r.ws?.handshakes], [20, {}, 5]);
    assertEquals([r.ws?.closesSent, r.ws?.closeCodes], [5, { "1000": 5 }]);
  });

  test("an open storm's requested rate is of messages (connections per second times N), as it serves", async () => {
    const { url, server } = denoServer();
    try {
      const r = await runAttack(parseAttackConfig({
        url: url + "/echo",
        model: "rate",
        phases: [{ durationMs: 1000, ratePerSec: 10 }],
        timeoutMs: 3000,
        // Counts and error kinds are judged here, not latency: the generator's warm-up (tested on its own)
        // would only add time to each case.
        generatorWarmup: false,
        transport,
        ws: { messagesPerConnection: 3 },
      } as AttackConfigInput));
      assertEquals([r.targetRps, r.errors], [30, {}]);
      ok(r.requests > 0 && r.requests % 3 === 0, String(r.requests));
    } finally {
      await server.shutdown();
    }
  });

  test("a server closing with 4001 after each echo: its code counted, the connection reopened", async () => {
    const r = await attack("/close-4001", transport, { requests: 6, connections: 1 });
    // A send racing the server's close (its close frame not yet read) is lost with it: ws-closed.
    const lost = r.errors["ws-closed"] ?? 0;
    assertEquals(
      [r.requests + lost, Object.keys(r.errors).filter((k) => k !== "ws-closed")],
      [6, []],
      JSON.stringify(r.errorMessages),
    );
    ok(r.requests >= 1 && (r.ws?.closeCodes["4001"] ?? 0) >= r.requests - 1, JSON.stringify(r.ws));
    ok((r.ws?.handshakes ?? 0) >= r.requests);
  });
}

// A read stays armed between exchanges on every transport (Deno's sockets through promise reads), so a
// broadcast is timed as it arrives. An open model: io_uring serves closed ones only.
for (const transport of ["deno", "epoll"] as const) {
  Deno.test({
    name:
      `ws client [${transport}]: a broadcast to an idle connection is timed as it arrives, not at its next send`,
    ignore: transport === "epoll" && EPOLL_BLOCKER !== null,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      // Sends 3 s apart, each echoed, then a broadcast 100 ms later while the connection waits (the run
      // lasts its schedule's 6 s, so both broadcasts come).
      const r = await attack("/later", transport, { requests: 2, connections: 1, ratePerSec: 1 / 3 });
      assertEquals([r.requests, r.errors, r.ws?.unsolicited], [2, {}, 2], JSON.stringify(r.ws));
      // Read at a next send it would be about 2.9 s old (or never read, on another connection).
      const fanoutMs = r.ws?.fanoutMs?.max ?? Infinity;
      ok(fanoutMs < 1500, `fan-out ${fanoutMs} ms: read at the next send`);
    },
  });
}
