import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { ConnectGate } from "./connect_gate.ts";

Deno.test("connect gate: never more than the bound in flight, slots handed to waiters in order", async () => {
  const gate = new ConnectGate(2);
  assertEquals([gate.acquire(), gate.acquire(), gate.hasRoom], [undefined, undefined, false]);
  const order: number[] = [];
  const third = gate.acquire()!.then(() => order.push(3));
  const fourth = gate.acquire()!.then(() => order.push(4));
  gate.release();
  await third;
  assertEquals([order, gate.inFlight], [[3], 2]);
  gate.release();
  await fourth;
  gate.release();
  gate.release();
  assertEquals([order, gate.inFlight, gate.maxInFlight, gate.hasRoom], [[3, 4], 0, 2, true]);
});
