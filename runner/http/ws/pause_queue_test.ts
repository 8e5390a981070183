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
  const due: [string, number][] = [];
  for (const [name, ms] of [["long", 60], ["short-1", 5], ["middle", 30], ["short-2", 5]] as const) {
    const w = waiter(name, ended);
    queue.add(ms, w);
    due.push([name, w.pauseDueMs]);
  }
  // The event loop held past every due time (a busy worker): the one timer then ends all four at once, in
  // the order their due times fall (on a loaded machine a pause between two adds moves those times).
  const heldUntilMs = performance.now() + 80;
  while (performance.now() < heldUntilMs) { /* busy */ }
  await new Promise((resolve) => setTimeout(resolve, 150));
  assertEquals(ended, due.sort((a, b) => a[1] - b[1]).map(([name]) => name));
  assertEquals(new Set(ended).size, 4);
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
