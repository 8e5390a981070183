/**
 * A WebSocket load in an experiment file: its `ws.path` on the target's origin, the scheme ws: or
 * wss: after the target's, the target's path prefix kept.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { rebase } from "./run/one.ts";
import type { RelativeAttackInput } from "../runner/config.ts";

Deno.test("a ws load goes to the target's origin as ws: or wss:, at its path", () => {
  const attack = { model: "count", requests: 1, ws: { path: "/ws/room?room=a" } } as RelativeAttackInput;
  assertEquals(rebase(attack, "http://127.0.0.1:8080/").url, "ws://127.0.0.1:8080/ws/room?room=a");
  assertEquals(rebase(attack, "https://example.test/api/").url, "wss://example.test/api/ws/room?room=a");
  const noPath = { model: "count", requests: 1, ws: {} } as RelativeAttackInput;
  assertEquals(rebase(noPath, "http://127.0.0.1:8080").url, "ws://127.0.0.1:8080/");
});
