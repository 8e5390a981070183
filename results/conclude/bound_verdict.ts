/**
 * @module
 * Who held a run up, from its late and server-bound send counts: one rule for a run, a phase of one and
 * merged shards. Pure.
 */
import type { RunResult } from "../mod.ts";

/** The fewest late (or waiting) sends that can name who limited a run. */
export const MIN_HELD_SENDS = 5;

/**
 * Who limited an open-model run when over 1% of `MIN_HELD_SENDS`+ sends were held up: the larger of late
 * sends (the generator) and sends that waited for a connection (the server), though over half late always
 * names the generator (its unread responses make connections look busy). `saturated` (served short while
 * latency rose) names the server; a closed run's `busyGenerator` (generator_saturation.ts) the generator.
 */
export function verdict(
  lateSends: number,
  serverBoundSends: number,
  sends: number,
  saturated = false,
  busyGenerator = false,
): Pick<RunResult, "generatorBound" | "serverBound" | "serverBoundSends"> {
  const mostLate = lateSends > 0.5 * sends;
  const generatorBound = busyGenerator || lateSends >= MIN_HELD_SENDS && lateSends > 0.01 * sends &&
      (lateSends >= serverBoundSends || mostLate) && (!saturated || mostLate);
  const waited = serverBoundSends >= MIN_HELD_SENDS && serverBoundSends > 0.01 * sends;
  return {
    generatorBound,
    serverBound: (waited || saturated) && !generatorBound,
    serverBoundSends,
  };
}
