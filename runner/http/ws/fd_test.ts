/**
 * After WebSocket runs the generator holds no more sockets to the test's server than before, on every
 * transport (Deno sockets, epoll, io_uring): kept connections, storms (a connection per arrival), a
 * server that closes after each echo but never closes TCP (the client's wait for it is cut at the
 * timeout) and the run's stop with connections open. The server runs in this process: its sockets are
 * closed before each count, which waits (bounded) for the closes to land.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../../config.ts";
import { runAttack } from "../../attack.ts";
import { epollBlocker, uringBlocker } from "../transport/choice.ts";
import { answer101, readUpgrade } from "../../../tests/fixtures/ws_upgrade.ts";
import { socketsOn } from "../../../tests/fixtures/sockets_on.ts";

/**
 * The sockets on `port` once only the listener's is left, or after 5 s: a closed socket's descriptor is
 * given back after the close is processed, later on a busy machine; a socket left open stays counted.
 */
async function onlyListening(port: number): Promise<number> {
  const untilMs = performance.now() + 5_000;
  while (socketsOn(port) > 1 && performance.now() < untilMs) await new Promise((r) => setTimeout(r, 20));
  return socketsOn(port);
}

const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
const URING_BLOCKER = uringBlocker(new URL("http://127.0.0.1/"), { closedModel: true });
for (const transport of ["deno", "epoll", "io_uring"] as const) {
  Deno.test({
    name: `ws runs leave no descriptor open [${transport}]`,
    ignore: (transport === "epoll" && EPOLL_BLOCKER !== null) ||
      (transport === "io_uring" && URING_BLOCKER !== null),
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const held: Deno.Conn[] = [];
      const closeHeld = () => {
        for (const conn of held.splice(0)) {
          try {
            conn.close();
          } catch { /* closed */ }
        }
      };
      // Echoes each message, then a close frame (1000), and never closes TCP itself.
      const accepting = (async () => {
        for await (const conn of listener) {
          held.push(conn);
          (async () => {
            const key = await readUpgrade(conn);
            if (key === null) return;
            await conn.write(answer101(key));
            const buf = new Uint8Array(4096);
            while ((await conn.read(buf)) !== null) {
              await conn.write(Uint8Array.of(0x81, 0x02, 0x6f, 0x6b, 0x88, 0x02, 0x03, 0xe8));
            }
          })().catch(() => {});
        }
      })().catch(() => {});
      const base = {
        url: `ws://127.0.0.1:${listener.addr.port}/ws`,
        transport,
        intervalMs: 100,
        timeoutMs: 400,
        gracefulStopMs: 200,
      };
      const run = (extra: Record<string, unknown>) =>
        runAttack(parseAttackConfig({ ...base, ...extra } as AttackConfigInput));
      try {
        await run({ model: "count", requests: 2, connections: 1 });
        closeHeld();
        const before = await onlyListening(listener.addr.port);
        await run({ model: "connections", connections: 4, durationMs: 600 });
        await run({
          model: "rate",
          phases: [{ durationMs: 600, ratePerSec: 20 }],
          ws: { messagesPerConnection: 2 },
        });
        await run({ model: "connections", connections: 3, durationMs: 300, ws: { pingIntervalMs: 5000 } });
        closeHeld();
        assertEquals(await onlyListening(listener.addr.port), before);
      } finally {
        listener.close();
        closeHeld();
        await accepting;
      }
    },
  });
}
