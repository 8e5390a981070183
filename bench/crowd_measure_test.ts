/**
 * @module
 * The crowd bench's spreading: how many addresses a crowd to one server needs (past half the local port
 * range of one address) and how a peer's connections split over its processes.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { sourcesFor, split } from "./crowd_measure.ts";

Deno.test("a crowd within one address's quick ports needs one address; past it, as many as hold it", () => {
  assertEquals(sourcesFor(10_000, 28_232), 1);
  assertEquals(sourcesFor(14_116, 28_232), 1);
  assertEquals(sourcesFor(19_950, 28_232), 2);
  assertEquals(sourcesFor(42_000, 28_232), 3);
  assertEquals(sourcesFor(19_950, null), 1);
});

Deno.test("a crowd splits over processes as evenly as whole connections go", () => {
  assertEquals(split(19_950, 2), [9_975, 9_975]);
  assertEquals(split(10_001, 3), [3_334, 3_334, 3_333]);
  assertEquals(split(50, 1), [50]);
});
