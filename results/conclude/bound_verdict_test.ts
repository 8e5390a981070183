import assert from "node:assert/strict";
import { MIN_HELD_SENDS, verdict } from "./bound_verdict.ts";

Deno.test("bound verdict: a handful of late sends in a short run names no cause", () => {
  // One send of 20 let out 6 ms late by a busy scheduler is 5%, yet says nothing about who limited the run.
  assert.deepEqual(verdict(1, 0, 20), { generatorBound: false, serverBound: false, serverBoundSends: 0 });
  assert.deepEqual(verdict(0, MIN_HELD_SENDS - 1, 20).serverBound, false);
  assert.equal(verdict(MIN_HELD_SENDS, 0, 20).generatorBound, true);
  assert.equal(verdict(0, MIN_HELD_SENDS, 20).serverBound, true);
});

Deno.test("bound verdict: above 1% the larger count names the cause; over half late is the generator", () => {
  assert.equal(verdict(50, 900, 10_000).serverBound, true);
  assert.equal(verdict(900, 50, 10_000).generatorBound, true);
  assert.equal(verdict(6_000, 9_000, 10_000).generatorBound, true);
  assert.deepEqual(verdict(50, 60, 100_000), {
    generatorBound: false,
    serverBound: false,
    serverBoundSends: 60,
  });
});
