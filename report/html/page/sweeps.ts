/**
 * @module
 * The sweep curves of the page data: each variant's points over the swept parameter and the knee. Pure.
 */
import type { Analysis, ResultsFile, RunResult } from "../../../results/mod.ts";
import { curveAxes, isCategorical, round4, type SweepPoint } from "../../../results/stats.ts";
import { analyze, curvePoints, isRateParameter, sweepCurves } from "../../../results/conclude/analysis.ts";
import { groupSends, groupVerdict } from "./verdict.ts";
import { sampledLatency } from "../../../results/conclude/responses.ts";
import { storedKnee } from "./experiment.ts";

export type PageSweep = ReturnType<typeof sweepCurve>;

/** One curve per variant × load over its swept parameter, probes left out, with its knee. */
export function buildSweeps(results: ResultsFile): PageSweep[] {
  // A file with no stored analysis (merged, older) gets the knees the findings' rule finds.
  const analysis = results.analysis ?? analyze(results.runs);
  return sweepCurves(results.runs.filter((r) => !r.probe)).map((runs) => sweepCurve(runs, analysis));
}

function sweepCurve(runs: RunResult[], analysis: Analysis) {
  const axes = curveAxes(runs[0])!;
  const parameter = axes.axis.parameter;
  // Without a response a point's p99 is NaN (shown "–"), not the 0 the file stores.
  const points = curvePoints(runs, (r) => sampledLatency(r).p99).map((p): SweepPoint => ({
    x: p.x,
    rps: round4(p.rps),
    p99Ms: round4(p.p99Ms),
    targetRps: p.targetRps === null ? null : round4(p.targetRps),
  }));
  // Each point as the sweep table lists it: requested, sent, dropped, achieved, verdict.
  const rows = points.map((p) => {
    const at = runs.filter((r) => curveAxes(r)!.axis.value === p.x);
    return { x: p.x, sends: groupSends(at), rps: p.rps, p99Ms: p.p99Ms, verdict: groupVerdict(at) };
  });
  const isRate = isRateParameter(parameter);
  const categorical = isCategorical(points.map((p) => p.x));
  const where = [runs[0].variant, runs[0].load].filter((p) => p !== undefined).join("/");
  const second = axes.at ? ` at ${axes.at.parameter}=${axes.at.value}` : "";
  const title = (where ? `${where}: ${parameter}` : parameter) + second;
  const stored = storedKnee(analysis, runs[0]);
  const knee = stored === undefined ? -1 : points.findIndex((p) => p.x === stored.value);
  return {
    title,
    parameter,
    isRate,
    /** Words (`load.protocol`: http1, h2): drawn as categories in the file's order, with no knee. */
    categorical,
    points,
    knee: knee === -1 ? null : knee,
    /** Why the knee is where it is (from the stored analysis), null when the page found it itself. */
    kneeReason: stored?.reason ?? null,
    /** One row per point, index-aligned with `points`: what was asked and sent beside what came back. */
    rows,
  };
}
