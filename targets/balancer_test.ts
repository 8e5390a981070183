import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { pickInstance } from "./balancer.ts";

Deno.test("round-robin cycles through the instances", () => {
  assertEquals([0, 1, 2, 3, 4].map((n) => pickInstance("round-robin", [5, 0, 0], n)), [0, 1, 2, 0, 1]);
});

Deno.test("least-connections picks the least busy instance, ties in rotation", () => {
  assertEquals(pickInstance("least-connections", [3, 1, 2], 0), 1);
  assertEquals(pickInstance("least-connections", [1, 1, 1], 0), 0);
  assertEquals(pickInstance("least-connections", [1, 1, 1], 1), 1);
  assertEquals(pickInstance("least-connections", [0, 4, 0], 1), 2);
});
