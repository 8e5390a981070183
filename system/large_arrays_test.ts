import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { maxOf, minOf, octetString } from "./large_arrays.ts";

Deno.test("extremes and octets of arrays far past the engine's argument limit", () => {
  const xs = Float64Array.from({ length: 1_000_000 }, (_, k) => (k * 7919) % 1_000_003);
  assertEquals([maxOf(xs), minOf(xs), maxOf([]), minOf([])], [1_000_002, 0, -Infinity, Infinity]);
  assertEquals([maxOf([3, NaN]), minOf([-1, -2])], [NaN, -2]);
  const bytes = Uint8Array.from({ length: 300_000 }, (_, k) => k & 255);
  const s = octetString(bytes);
  assertEquals([s.length, s.charCodeAt(299_999), s.charCodeAt(8192), octetString(bytes, 254, 3)], [
    300_000,
    299_999 & 255,
    0,
    "\xfe\xff\x00",
  ]);
});
