/**
 * The chart helpers over series as long as a long run's (a million intervals, far past the engine's
 * argument limit for a spread): the log/linear choice and the log axis's floor, and the page's script
 * carrying the loops they use.
 */
import assert from "node:assert/strict";
import { autoScaleType, logFloor } from "./charts.ts";
import { clientSource } from "../render.ts";

Deno.test("the axis choice and floor read a million points", () => {
  const values = Array.from({ length: 1_000_000 }, (_, k) => (k % 1000) + 1);
  assert.deepEqual([autoScaleType(values), logFloor(values)], ["logarithmic", 0.1]);
  values.fill(500, 0, 999_999);
  values[5] = 20;
  assert.deepEqual([autoScaleType(values), logFloor(values)], ["linear", 10]);
});

Deno.test("the page's script defines the extremes its chart helpers call", () => {
  const script = clientSource();
  for (const name of ["maxOf", "minOf"]) assert.match(script, new RegExp(`\\bfunction ${name}\\(`));
});
