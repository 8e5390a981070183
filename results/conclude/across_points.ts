/**
 * @module
 * An expected direction weighed across a sweep's points: where every point went the expected way and at
 * least `MIN_POINTS` were measured, their normal errors (noise.ts `normalErrors`) are combined as
 * independent tests (Stouffer), and the direction holds at `BEYOND_NOISE_MIN_SE` or more. Pure.
 */
import type { RunResult } from "../mod.ts";
import { normalErrors } from "./noise.ts";
import { BEYOND_NOISE_MIN_SE } from "../stats.ts";
import { standardErrorsText } from "./success_share.ts";

/** Fewest points to weigh together: two can both go one way by chance as often as one in four. */
const MIN_POINTS = 3;

/** One point: the better side's runs and the other's. */
export interface PointRuns {
  better: RunResult[];
  than: RunResult[];
}

/** The test and margin by which the direction holds across `points` together (Stouffer), or null. */
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
