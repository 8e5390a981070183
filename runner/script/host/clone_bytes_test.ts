import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { cloneBytes } from "./clone_bytes.ts";

Deno.test("cloneBytes counts buffers once, strings by length, and ends on cycles and past its bound", () => {
  const bytes = new Uint8Array(2 ** 20);
  const shared = { a: bytes, b: bytes.subarray(10) };
  ok(cloneBytes(shared) >= 2 ** 20 && cloneBytes(shared) < 2 ** 20 + 100, String(cloneBytes(shared)));
  assertEquals(cloneBytes("x".repeat(1000)), 1000);
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  ok(cloneBytes(cycle) < 100);
  const rows = new Map(Array.from({ length: 1000 }, (_, i) => [i, "r".repeat(100)]));
  ok(cloneBytes(rows) >= 100_000);
  ok(cloneBytes(Array.from({ length: 100 }, () => new Uint8Array(1000)), 5_000) < 7_000);
});
