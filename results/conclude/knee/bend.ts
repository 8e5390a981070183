/**
 * @module
 * Whether a rate sweep's point bent beyond noise: a knee is only named where the rate or the latency
 * bends by more than noise can. A point counts as past the knee (findKnee in results/stats.ts) when it
 * achieved under 95% of its requested rate or its p99 went over 3x the lowest rate's; on one machine a
 * 1 s run's p99 can triple by a stall of the machine, so each of the two is also judged against noise:
 * the shortfall by the point's achieved rate (its repeats, else its runs' batch means) against 95% of the
 * requested one, at `BEYOND_NOISE_MIN_SE` standard errors or more; the p99 by the noise rule that fits
 * it (noise.ts) against the lowest rate's runs. A bend the noise could not judge is not one. Pure.
 */
import type { RunResult } from "../../mod.ts";
import { judgeNoise } from "../noise.ts";
import { runNoise } from "../noise_samples.ts";
import {
  BEYOND_NOISE_MIN_SE,
  curveAxes,
  KEPT_UP_SHARE,
  type MeanCi,
  meanCi,
  round4,
  type SweepPoint,
  tQuantile95,
} from "../../stats.ts";

/** The achieved rate of a point's runs: their repeats' values, else their batch means. */
function achieved(runs: RunResult[]): MeanCi {
  return runs.length >= 2 ? meanCi(runs.map((r) => r.rps)) : runNoise(runs, "rps");
}

/** How many standard errors `m` lies below `bar`; 0 when it cannot tell (fewer than three values). */
function errorsBelow(m: MeanCi, bar: number): number {
  if (m.ci95 === null || m.n < 3) return 0;
  const se = m.ci95 / tQuantile95(m.n - 1);
  return se > 0 ? (bar - m.mean) / se : bar > m.mean ? Infinity : 0;
}

/**
 * The judge of `findKnee` for one rate curve (`curve` its runs, `points` from them in order): true for the
 * point at `index` when the way it failed (short of the rate, or p99 over 3x the lowest's) is beyond noise.
 */
export function bentBeyondNoise(curve: RunResult[], points: SweepPoint[]): (index: number) => boolean {
  const at = (i: number) => curve.filter((r) => curveAxes(r)!.axis.value === points[i].x);
  return (index) => {
    const p = points[index], runs = at(index);
    const requested = p.targetRps ?? (p.x as number);
    if (p.rps < KEPT_UP_SHARE * requested) {
      return errorsBelow(achieved(runs), KEPT_UP_SHARE * requested) >= BEYOND_NOISE_MIN_SE;
    }
    const lowest = at(0);
    const rule = runs.length >= 2 && lowest.length >= 2 ? "repeats" : "within-run";
    const judged = judgeNoise(rule, runs, lowest, "p99");
    return "beyond" in judged && judged.beyond;
  };
}

/**
 * The first point of a rate curve short of the rate or over 3x the lowest p99 whose bend is not beyond noise.
 */
export function unbentText(points: SweepPoint[], bent: (index: number) => boolean): string {
  const i = points.findIndex((p, i) =>
    i > 0 && !bent(i) &&
    (p.rps < KEPT_UP_SHARE * (p.targetRps ?? (p.x as number)) || p.p99Ms > 3 * points[0].p99Ms)
  );
  return i < 0 ? "" : ` (the bend at ${round4(points[i].x as number)} is within what noise can do)`;
}
