/**
 * The generator's warm-up burst exchanges with its sink on every transport and leaves no socket behind.
 * A WebSocket burst against an echo on the generator's own thread exchanged no message on epoll and
 * io_uring (their pumps block the thread the echo needed), so it warmed nothing while looking as if it
 * ran: the count of answers is what these tests hold it to. A hold run has no burst, and a whole ws run
 * through the pool reports its warm-up.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../config.ts";
import { runAttack } from "../attack.ts";
import { epollBlocker, uringBlocker } from "../http/transport/choice.ts";
import { WS_DEFAULTS } from "../http/ws/config.ts";
import { warmUpGenerator } from "./run_load.ts";
import { startWsSink } from "./warmup_sink.ts";
import { socketsOn } from "../../tests/fixtures/sockets_on.ts";

const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
const URING_BLOCKER = uringBlocker(new URL("http://127.0.0.1/"), { closedModel: true });
const TRANSPORTS = ["deno", "epoll", "io_uring"] as const;

function blocked(transport: typeof TRANSPORTS[number]): boolean {
  return (transport === "epoll" && EPOLL_BLOCKER !== null) ||
    (transport === "io_uring" && URING_BLOCKER !== null);
}

/**
 * Waits until `port` has at most `most` sockets in this process, for at most `boundMs`; returns the count.
 */
async function settleSockets(port: number, most: number, boundMs: number): Promise<number> {
  const untilMs = performance.now() + boundMs;
  while (socketsOn(port) > most && performance.now() < untilMs) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return socketsOn(port);
}

// The target is never dialled by the burst: a closed port proves it.
const TARGET = "ws://127.0.0.1:9/ws";

for (const transport of TRANSPORTS) {
  Deno.test({
    name: `ws warm-up exchanges messages with its echo and closes every socket [${transport}]`,
    ignore: blocked(transport),
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const config = parseAttackConfig({
        url: TARGET,
        transport,
        model: "connections",
        connections: 8,
        durationMs: 1000,
      } as AttackConfigInput);
      const sink = await startWsSink();
      const port = Number(new URL(sink.url).port);
      try {
        const warm = await warmUpGenerator(config, {
          ws: config.ws ?? WS_DEFAULTS,
          sinkUrl: sink.url,
        });
        ok(warm.answered > 0, `the burst exchanged no message over ${transport}`);
        ok(warm.durationMs > 0);
        // Only the sink's listener is left once the echo has seen the burst's connections go.
        assertEquals(await settleSockets(port, 1, 3_000), 1);
      } finally {
        sink.close();
      }
      assertEquals(await settleSockets(port, 0, 3_000), 0);
    },
  });
}

Deno.test({
  name: "ws warm-up without the pool starts and ends its own echo; a hold run has no burst",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const input = { url: TARGET, transport: "deno", model: "connections", connections: 2, durationMs: 1000 };
    const config = parseAttackConfig(input as AttackConfigInput);
    const warm = await warmUpGenerator(config, { ws: config.ws ?? WS_DEFAULTS });
    ok(warm.answered > 0, "the burst exchanged no message with its own echo");
    const hold = parseAttackConfig({ ...input, ws: { pingIntervalMs: 1000 } } as AttackConfigInput);
    assertEquals(
      await warmUpGenerator(hold, { ws: hold.ws ?? WS_DEFAULTS }),
      { durationMs: 0, answered: 0 },
    );
  },
});

Deno.test({
  name: "HTTP warm-up is answered by its in-thread sink",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const config = parseAttackConfig({
      url: "http://127.0.0.1:9/",
      transport: "deno",
      model: "connections",
      connections: 2,
      durationMs: 1000,
    } as AttackConfigInput);
    const warm = await warmUpGenerator(config);
    ok(warm.answered > 0, "the HTTP burst had no response");
  },
});

Deno.test({
  name: "a count's burst sends no more than the count; a count too few to optimize anything (-n 1) has none",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const count = (requests: number, ratePerSec?: number) =>
      parseAttackConfig({
        url: "http://127.0.0.1:9/",
        transport: "deno",
        model: "count",
        requests,
        connections: 1,
        ...(ratePerSec === undefined ? {} : { ratePerSec }),
      } as AttackConfigInput);
    // A burst that a starved machine ends before an answer came counts 0: never more than the count.
    let answered = 0;
    for (const ratePerSec of [undefined, 1_000]) {
      const one = count(1, ratePerSec);
      assertEquals(await warmUpGenerator(one), { durationMs: 0, answered: 0 });
      const some = count(150, ratePerSec);
      const warm = await warmUpGenerator(some);
      ok(warm.answered <= 150, `rate ${ratePerSec}: ${warm.answered} answered`);
      answered += warm.answered;
    }
    ok(answered >= 1, "neither burst was answered");
  },
});

Deno.test({
  name:
    "a ws run through the pool (auto: io_uring where it runs) warms up before t0 and sends the target nothing then",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    let upgrades = 0;
    let messages = 0;
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
      upgrades++;
      const { socket, response } = Deno.upgradeWebSocket(request);
      socket.onmessage = (event) => {
        messages++;
        socket.send(event.data);
      };
      return response;
    });
    try {
      const r = await runAttack(parseAttackConfig({
        url: `ws://127.0.0.1:${server.addr.port}/ws`,
        transport: "auto",
        model: "count",
        requests: 20,
        connections: 2,
        intervalMs: 100,
      } as AttackConfigInput));
      ok((r.generatorWarmupMs ?? 0) > 0, "the ws run reported no generator warm-up");
      const auto = URING_BLOCKER === null ? "io_uring" : EPOLL_BLOCKER === null ? "epoll" : "deno";
      assertEquals([r.transport, r.transportFallback ?? null], [auto, EPOLL_BLOCKER]);
      // The burst went to the echo: the target saw only the run's own connections and messages.
      assertEquals([upgrades, messages, r.requests], [2, 20, 20]);
    } finally {
      await server.shutdown();
    }
  },
});
