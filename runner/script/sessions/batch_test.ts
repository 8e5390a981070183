/**
 * A batch's order and limits on their own: at most `parallel` in flight and `perHost` to one origin, a
 * waiting request sent as soon as one ends with room for it (in the order asked, skipping one whose origin
 * is full), the target held to `targetMax`, and nothing sent once the run stopped.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { type BatchRequest, SessionBatch } from "./batch.ts";
import type { OriginPlace } from "./origins.ts";
import type { Response } from "../session.ts";

const place = (origin: string, target = false) => ({ origin, target } as unknown as OriginPlace);
const A = place("http://a", true), B = place("http://b");

/** A batch whose sends are held until `finish(k)`; what was sent, in order. */
function heldBatch(parallel: number, perHost: number, targetMax = Infinity) {
  const sent: string[] = [];
  const held: Array<{ request: BatchRequest; batch: SessionBatch }> = [];
  let stopped = false;
  const batch = new SessionBatch(parallel, perHost, targetMax, (request, b) => {
    sent.push(request.path);
    held.push({ request, batch: b });
    return new Promise<Response>(() => {});
  }, () => stopped);
  const ask = (p: OriginPlace, target: string) =>
    batch.request({ place: p, method: "GET", path: target, options: {} });
  const finish = (target: string) => {
    const k = held.findIndex((h) => h.request.path === target);
    const [{ request, batch: b }] = held.splice(k, 1);
    b.ended(request.place);
  };
  return { sent, ask, finish, stop: () => stopped = true };
}

Deno.test("a batch sends within parallel and perHost, the rest in order as each ends", () => {
  const b = heldBatch(3, 2);
  for (const t of ["a1", "a2", "a3"]) b.ask(A, t);
  for (const t of ["b1", "b2"]) b.ask(B, t);
  // Two to A, then A is full: a3 waits, b1 goes; three in flight, b2 waits.
  assertEquals(b.sent, ["a1", "a2", "b1"]);
  b.finish("b1");
  // Room for one: a3 (first waiting) cannot go (A full), b2 can.
  assertEquals(b.sent, ["a1", "a2", "b1", "b2"]);
  b.finish("a1");
  assertEquals(b.sent, ["a1", "a2", "b1", "b2", "a3"]);
});

Deno.test("the target is held to targetMax; nothing is sent once the run stopped", () => {
  const b = heldBatch(20, 6, 1);
  for (const t of ["a1", "a2", "a3"]) b.ask(A, t);
  b.ask(B, "b1");
  assertEquals(b.sent, ["a1", "b1"]);
  b.finish("a1");
  assertEquals(b.sent, ["a1", "b1", "a2"]);
  b.stop();
  b.finish("a2");
  assertEquals(b.sent, ["a1", "b1", "a2"]);
});
