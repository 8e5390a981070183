/**
 * @module
 * An expected direction weighed across the points of a sweep. A quick run's points are short (1.5 s on a
 * busy machine), so each alone may fall short of the bar while the direction held at every one: three
 * points of a cache at twice the throughput, each 3 to 7 standard errors. Where every point went the
 * expected way and at least `MIN_POINTS` were measured, their differences in the normal's standard errors
 * (noise.ts `normalErrors`: each point by its own rule, few batches weighed down) are combined as
 * independent tests are (Stouffer: their sum over the root of their count), and the direction holds when
 * that is `BEYOND_NOISE_MIN_SE` or more. The same target twice goes either way from point to point, and
 * one point the other way round, or one not measured, leaves the direction to the points; a point within
 * its own noise still weighs in with what it measured. Pure.
 */
import type { RunResult } from "../mod.ts";
import { normalErrors } from "./noise.ts";
import { BEYOND_NOISE_MIN_SE } from "../stats.ts";
import { standardErrorsText } from "./success_share.ts";

/** Fewest points to weigh together: two can both go one way by chance as often as one in four. */
export const MIN_POINTS = 3;

/** One point: the better side's runs and the other's. */
export interface PointRuns {
  better: RunResult[];
  than: RunResult[];
}

/**
 * "by the points together (Stouffer over 3 points), 9.1 standard errors" when the direction holds across
 * `points` (`higher`: the better side's values are the higher), else null.
 */
export function acrossPoints(
  rule: "repeats" | "within-run",
  points: PointRuns[],
  metric: Parameters<typeof normalErrors>[3],
  higher: boolean,
): string | null {
  if (points.length < MIN_POINTS) return null;
  const z = points.map((p) => normalErrors(rule, p.better, p.than, metric));
  if (z.some((x) => x === null || (higher ? x <= 0 : x >= 0))) return null;
  const combined = Math.abs(z.reduce((a: number, x) => a + x!, 0)) / Math.sqrt(z.length);
  if (combined < BEYOND_NOISE_MIN_SE) return null;
  return `by the ${points.length} points together (Stouffer over each point's test), ` +
    `${standardErrorsText(combined)} apart`;
}
