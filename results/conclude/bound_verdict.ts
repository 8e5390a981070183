/**
 * @module
 * The verdict of a run on who held it up, from its late and server-bound send counts: the same rule for
 * a run as the aggregator finishes it (runner/stats/run_totals.ts), for a phase of a run
 * (results/interval_stats.ts) and for shards merged into one (merge/shard_runs.ts). Pure.
 */
import type { RunResult } from "../mod.ts";

/** The fewest late (or waiting) sends that can name who limited a run. */
export const MIN_HELD_SENDS = 5;

/**
 * Who limited an open-model run, when more than 1% of sends were held up: the generator (sends the
 * isolate dispatched late: it was behind) or the server (sends that waited for a connection: every one
 * busy, none could be opened at once). When both happened, the larger count names the cause, except
 * that more than half the sends late always names the generator: an isolate that far behind leaves
 * responses unread, so its connections look busy too. A server-bound run's isolate idles, but on a
 * busy shared machine its timers still fire more than 5 ms late for a tenth to a third of the sends
 * (measured with the cores at load 7-14), so the bound sits well above that. Both counts stay in the
 * results; a dropped send was counted as one of them. Neither flag rests on fewer than `MIN_HELD_SENDS`
 * sends: one send in a 20-send run that a busy machine's scheduler let out 6 ms late is 5% of the run, yet it
 * says nothing about who limited it.
 *
 * `saturated` (results/conclude/served_rate.ts: served short of the requested rate while latency kept
 * rising) names the server too: with connections free to open, no send waits for one, and the late sends
 * that opening hundreds of connections costs a busy generator must not name it while it sent the whole
 * rate and the server's queue grew. Only more than half the sends late still names the generator.
 *
 * A closed run has no schedule to be late for: `busyGenerator` (results/conclude/generator_saturation.ts:
 * the load worker's thread ran or waited for a core nearly all the time in most intervals) names the
 * generator there, whatever the crowd size.
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
