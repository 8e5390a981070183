/**
 * The built-in target's WebSocket endpoints under the engine's client, end to end (real sockets):
 * `/ws/echo` answers every message; `/ws/room` answers each sender with its own copy (`self`) and
 * fans every message out to the other members, whose copies the client counts as unsolicited and
 * times from the target's `sentAt`. The app's counters see the traffic. Bounded counts.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { createTargetApp } from "./app.ts";
import { parseAttackConfig } from "../../runner/config.ts";
import { runAttack } from "../../runner/attack.ts";

async function withTarget(fn: (base: string, stats: () => Record<string, number>) => Promise<void>) {
  const target = createTargetApp();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, target.fetch);
  try {
    await fn(`ws://127.0.0.1:${server.addr.port}`, target.stats);
  } finally {
    await server.shutdown();
  }
}

Deno.test({
  name: "/ws/echo answers every message; the app counts them",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () =>
    withTarget(async (base, stats) => {
      const r = await runAttack(parseAttackConfig({
        url: `${base}/ws/echo`,
        model: "count",
        connections: 2,
        requests: 30,
        timeoutMs: 3000,
      }));
      assertEquals([r.requests, r.errors, r.ws?.messagesReceived], [30, {}, 30]);
      assertEquals([stats().wsMessagesIn, stats().wsMessagesOut], [30, 30]);
    }),
});

Deno.test({
  name: "/ws/room: each sender's own copy answers it, the others' copies are fan-out with a latency",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () =>
    withTarget(async (base, stats) => {
      const r = await runAttack(parseAttackConfig({
        url: `${base}/ws/room?room=r1`,
        model: "count",
        connections: 3,
        requests: 30,
        timeoutMs: 3000,
        ws: { messages: ["hi"], match: { kind: "json", field: "self", equals: true } },
      } as never));
      assertEquals([r.requests, r.errors], [30, {}]);
      // Every broadcast reached every member open then: 3 copies per message once all three joined.
      ok(stats().wsMessagesOut > 30 && r.ws!.unsolicited > 0, JSON.stringify([stats(), r.ws]));
      ok(r.ws?.fanoutMs !== null && r.ws!.fanoutMs!.p50 >= 0);
    }),
});
