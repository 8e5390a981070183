import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { type Sleeper, SleepQueue } from "./sleep_queue.ts";

/** A sleeper that notes when, and under which number, it was woken. */
function sleeper(woken: Array<{ id: number; sleep: number; atMs: number }>, id: number): Sleeper {
  return {
    wake: (sleep) => {
      woken.push({ id, sleep, atMs: performance.now() });
      return true;
    },
  };
}

Deno.test("sleepers wake in the order they are due, none before its time, on one timer", async () => {
  const queue = new SleepQueue();
  const woken: Array<{ id: number; sleep: number; atMs: number }> = [];
  const startMs = performance.now();
  // Due times out of order, ties included, some already past.
  const dueOffsetsMs = Array.from({ length: 300 }, (_, i) => ((i * 37) % 41) - 3);
  dueOffsetsMs.forEach((offsetMs, id) => queue.add(sleeper(woken, id), id + 1, startMs + offsetMs));
  const limitMs = startMs + 5_000;
  while (woken.length < dueOffsetsMs.length && performance.now() < limitMs) {
    await new Promise((r) => setTimeout(r, 5));
  }
  assertEquals(woken.length, dueOffsetsMs.length);
  assertEquals(queue.size, 0);
  for (let k = 0; k < woken.length; k++) {
    const { id, sleep, atMs } = woken[k];
    assertEquals(sleep, id + 1);
    ok(
      atMs >= startMs + dueOffsetsMs[id],
      `sleeper ${id} woke ${startMs + dueOffsetsMs[id] - atMs} ms early`,
    );
    if (k > 0) ok(dueOffsetsMs[id] >= dueOffsetsMs[woken[k - 1].id], `sleeper ${id} woke out of order`);
  }
});

Deno.test("a sleeper queued earlier than the armed timer is woken first", async () => {
  const queue = new SleepQueue();
  const woken: Array<{ id: number; sleep: number; atMs: number }> = [];
  const startMs = performance.now();
  queue.add(sleeper(woken, 0), 1, startMs + 60);
  queue.add(sleeper(woken, 1), 1, startMs + 10);
  const limitMs = startMs + 5_000;
  while (woken.length < 2 && performance.now() < limitMs) await new Promise((r) => setTimeout(r, 5));
  assertEquals(woken.map((w) => w.id), [1, 0]);
});

Deno.test("once every queued sleep ended early, the queue drops its entries and its timer", () => {
  const queue = new SleepQueue();
  const woken: Array<{ id: number; sleep: number; atMs: number }> = [];
  const startMs = performance.now();
  for (let id = 0; id < 3; id++) queue.add(sleeper(woken, id), 1, startMs + 600_000);
  queue.forget();
  queue.forget();
  assertEquals(queue.size, 3);
  // The last one: nothing waits, so no timer is left to hold the test (Deno's sanitizer would fail it).
  queue.forget();
  assertEquals(queue.size, 0);
  assertEquals(woken.length, 0);
});

Deno.test("a sleep past what a runtime timer holds arms the longest one instead (a longer fired every 1 ms)", () => {
  const asked: number[] = [];
  const real = globalThis.setTimeout;
  globalThis.setTimeout = ((fn: () => void, ms?: number) => {
    asked.push(ms ?? 0);
    return real(fn, ms);
  }) as typeof setTimeout;
  const queue = new SleepQueue();
  const woken: Array<{ id: number; sleep: number; atMs: number }> = [];
  try {
    queue.add(sleeper(woken, 0), 1, performance.now() + 1e12);
  } finally {
    globalThis.setTimeout = real;
  }
  assertEquals(asked, [2 ** 31 - 1]);
  queue.forget();
  assertEquals([woken.length, queue.size], [0, 0]);
});

Deno.test("a sleep ended early is skipped at its turn, and its sleeper can sleep again", async () => {
  const queue = new SleepQueue();
  const ended: string[] = [];
  /** A sleeper as a WebSocket's pacing is one: only its last sleep, still waiting, wakes it. */
  const numbered = (name: string) => {
    const at = { last: 0, waiting: false };
    const who: Sleeper = {
      wake: (sleep) => {
        if (sleep !== at.last || !at.waiting) return false;
        at.waiting = false;
        ended.push(name);
        return true;
      },
    };
    const sleep = (ms: number) => {
      at.waiting = true;
      queue.add(who, ++at.last, performance.now() + ms);
    };
    return { sleep, endEarly: () => at.waiting = false };
  };
  const early = numbered("early");
  early.sleep(10);
  numbered("kept").sleep(10);
  // The connection was aborted: its wait ends now (the caller ran what followed), then it waits anew.
  early.endEarly();
  queue.forget();
  early.sleep(40);
  const limitMs = performance.now() + 5_000;
  while (ended.length < 2 && performance.now() < limitMs) await new Promise((r) => setTimeout(r, 5));
  assertEquals(ended, ["kept", "early"]);
  assertEquals(queue.size, 0);
});
