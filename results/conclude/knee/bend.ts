/**
 * @module
 * Whether a rate sweep's point bent beyond noise: short of 95% of its requested rate, or a p99 past 3x
 * the lowest rate's, each judged against noise (noise.ts); a bend noise could not judge is none. Pure.
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

/** Whether the point at `index` of a rate curve failed (short, or p99 past 3x) beyond noise. */
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
