/**
 * @module
 * The generator's part in a knee nothing of the target explains: it limited the run, an open run let
 * more of its sends out late, or a closed run's load worker never slept (generator_saturation.ts); else a
 * target on the generator's machine makes the knee the generator's or the machine's. Pure.
 */
import type { TelemetryDigest } from "../telemetry_digest.ts";
import { SATURATED_PCT } from "../generator_saturation.ts";
import { formatNumber } from "../../text_format.ts";

/** The generator sending this % of its requests late or more, twice the share below the knee, fell behind. */
export const GENERATOR_LATE_PCT = 1;

const one = (x: number) => formatNumber(x, x >= 10 ? 0 : 1);

/** [resource, words] of the generator's part (see the module comment); null when it had none. */
export function generatorVerdict(below: TelemetryDigest, above: TelemetryDigest): [string, string] | null {
  if (above.generatorBound) {
    return ["generator", "generator-bound: the load generator, not the target, limited it"];
  }
  const late = above.lateSendsPct ?? 0, lateBelow = below.lateSendsPct ?? 0;
  if (late >= GENERATOR_LATE_PCT && late >= 2 * lateBelow) {
    return [
      "generator",
      `the generator fell behind (${one(late)}% of its requests late, ${one(lateBelow)}% below the knee): ` +
      "its own event loop was the queue, not the target",
    ];
  }
  const demand = above.generatorDemandPct;
  if (demand !== null && demand >= SATURATED_PCT) {
    return [
      "generator",
      `the load worker never slept (it ran or waited for a core ${one(demand)}% of the time, its timers up ` +
      `to ${one(above.generatorLoopLagMs ?? 0)} ms late): the generator was the queue, not the target`,
    ];
  }
  if (!above.sameMachine) return null;
  return [
    "machine",
    "nothing loadlab samples of the target saturated, and the target shares this machine with the " +
    "generator: the knee is the generator's or the machine's (other work on its cores), not a downstream " +
    "service's",
  ];
}
