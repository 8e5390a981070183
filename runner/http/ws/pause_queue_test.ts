/**
 * The one timer of a worker's idle waits (pause_queue.ts): waits of several lengths end in the order they
 * are due, each once; a wait ended early is skipped when its turn comes, and its waiter may wait again at
 * once; nothing waits once all ended. Orders and counts only, never a duration.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { PauseQueue, type PauseWaiter } from "./pause_queue.ts";

function waiter(name: string, ended: string[]): PauseWaiter {
  return { pauseDueMs: NaN, pauseEnded: () => ended.push(name) };
}

Deno.test("pause queue: waits of several lengths end in due order, each once", async () => {
  const queue = new PauseQueue();
  const ended: string[] = [];
  queue.add(60, waiter("long", ended));
  queue.add(5, waiter("short-1", ended));
  queue.add(30, waiter("middle", ended));
  queue.add(5, waiter("short-2", ended));
  // The event loop held past every due time (a busy worker): the one timer then ends all four at once.
  const heldUntilMs = performance.now() + 80;
  while (performance.now() < heldUntilMs) { /* busy */ }
  await new Promise((resolve) => setTimeout(resolve, 150));
  assertEquals(ended, ["short-1", "short-2", "middle", "long"]);
  assertEquals(queue.queued, 0);
});

Deno.test("pause queue: a wait ended early is skipped at its turn, and its waiter can wait again", async () => {
  const queue = new PauseQueue();
  const ended: string[] = [];
  const early = waiter("early", ended);
  queue.add(10, early);
  queue.add(10, waiter("kept", ended));
  // The connection was aborted: its wait ends now (the caller ran what followed), then it waits anew.
  early.pauseDueMs = NaN;
  queue.add(40, early);
  await new Promise((resolve) => setTimeout(resolve, 150));
  assertEquals(ended, ["kept", "early"]);
  assertEquals(queue.queued, 0);
});
