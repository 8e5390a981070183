/**
 * The array methods a converted k6 script's async callbacks run through, on real async callbacks: each
 * element's callback ends before the next starts, over an array or a Map's or Set's forEach, and any other
 * receiver (a selection's map, a typed array) is refused naming the fix, never handed a callback whose
 * promises nobody awaits.
 */
import { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import { runArrayCall } from "./array_calls.ts";

const same = (value: unknown) => value;

/** A callback that waits a tick, recording when each call starts and ends. */
function recorder() {
  const log: string[] = [];
  const callback = async (...args: unknown[]) => {
    log.push(`start ${String(args[0])}`);
    await new Promise((r) => setTimeout(r, 1));
    log.push(`end ${String(args[0])}`);
    return args[0];
  };
  return { log, callback };
}

Deno.test("a Map's and a Set's forEach run their callbacks one after another, awaited, with forEach's arguments", async () => {
  const set = recorder();
  await runArrayCall("forEach", new Set(["a", "b"]), set.callback, [], same);
  assertEquals(set.log, ["start a", "end a", "start b", "end b"]);
  const seen: unknown[][] = [];
  const map = new Map([["k1", 1], ["k2", 2]]);
  await runArrayCall(
    "forEach",
    map,
    async (...args: unknown[]) => {
      await Promise.resolve();
      seen.push(args);
    },
    [],
    same,
  );
  assertEquals(seen, [[1, "k1", map], [2, "k2", map]]);
});

Deno.test("a receiver whose callbacks cannot be awaited is refused naming it and the fix, none called", async () => {
  const { log, callback } = recorder();
  const selection = { map: (fn: (...a: unknown[]) => unknown) => [fn(0), fn(1)] };
  class Selection {
    map(fn: (...a: unknown[]) => unknown) {
      return [fn(0)];
    }
  }
  await rejects(
    runArrayCall("map", selection, callback, [], same),
    /map\(\) with a callback that sends requests or sleeps, called on an object: .*Array\.from/,
  );
  await rejects(runArrayCall("map", new Selection(), callback, [], same), /called on a Selection/);
  await rejects(runArrayCall("some", new Set([1]), callback, [], same), /some\(\) .* called on a Set/);
  await rejects(runArrayCall("forEach", new Uint8Array(2), callback, [], same), /called on a Uint8Array/);
  await rejects(
    runArrayCall("forEach", undefined, callback, [], same),
    /Cannot read properties of undefined \(reading 'forEach'\)/,
  );
  assertEquals(log, []);
});

Deno.test("an array's callbacks walk the elements it had when the call began, skipping holes as the native methods", async () => {
  const { callback } = recorder();
  // A callback that pushes what it found onto the array it walks: one call, as the native forEach makes.
  const queue = ["/"];
  const calls: unknown[] = [];
  await runArrayCall(
    "forEach",
    queue,
    async (path: unknown) => {
      calls.push(path);
      await Promise.resolve();
      if (queue.length < 10) queue.push(`${path}next`); // bounded, should the walk follow the pushes
    },
    [],
    same,
  );
  assertEquals([calls, queue.length], [["/"], 2]);
  // deno-lint-ignore no-sparse-arrays
  const sparse = [1, , 3];
  const mapped = await runArrayCall("map", sparse, callback, [], same) as unknown[];
  assertEquals([mapped.length, 1 in mapped, mapped[2]], [3, false, 3]);
  assertEquals(
    await runArrayCall("reduce", sparse, (a: number, x: number) => Promise.resolve(a + x), [], same),
    4,
  );
  assertEquals(
    await runArrayCall("findIndex", sparse, (x: unknown) => Promise.resolve(x === undefined), [], same),
    1,
  );
  await rejects(
    runArrayCall("reduce", [], callback, [], same),
    /Reduce of empty array with no initial value/,
  );
});

Deno.test("an async flatMap's callback may return an array of any length", async () => {
  const out = await runArrayCall(
    "flatMap",
    [1, 2],
    (x: unknown) => Promise.resolve(new Array(200_000).fill(x)),
    [],
    same,
  ) as unknown[];
  assertEquals([out.length, out[0], out[399_999]], [400_000, 1, 2]);
});
