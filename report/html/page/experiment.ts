/**
 * @module
 * Page data of experiments, pure: the stored analysis on overview rows and sweeps, phases across variants.
 */
import type { Analysis, ResultsFile, RunResult } from "../../../results/mod.ts";
import { curveAxes, meanCi, round4 } from "../../../results/stats.ts";
import { capacityFound } from "../../../results/conclude/capacity.ts";

/** How the analysis judged noise, in the words the report and the CI summary both use. */
export function describeNoiseRule(analysis: Analysis): string {
  if (analysis.noiseRule === "within-run") {
    return "judged within each run (batch means after stabilization, where the load asked for one rate and " +
      "the run settled; else not judged), as there are not two repeats of each";
  }
  const counts = analysis.groups.map((g) => g.runs.length);
  const fewest = Math.min(...counts), most = Math.max(...counts);
  const n = fewest === most ? String(fewest) : `${fewest}-${most}`;
  return `judged by the spread between ${n} repeats (Welch's t-test, 95%)`;
}

/** The stored analysis as the page shows it, or null without one. */
export function pageAnalysis(results: ResultsFile) {
  const a = results.analysis;
  if (!a) return null;
  const searches = a.searches.map((s) => ({ ...s, found: capacityFound(s, results.runs) }));
  return { noiseRule: a.noiseRule, noiseText: describeNoiseRule(a), searches };
}

/** The stored comparisons of the analysis group holding `runName`, or null. */
export function storedComparison(analysis: Analysis | undefined, runName: string) {
  const group = analysis?.groups.find((g) => g.runs.includes(runName));
  const comparisons = group ? analysis!.comparisons.filter((c) => c.group === group.key) : [];
  if (comparisons.length === 0) return null;
  const out = { changePct: {} as Record<string, number>, beyondNoise: {} as Record<string, boolean> };
  for (const c of comparisons) {
    out.changePct[c.metric] = round4(c.changePct);
    // Not judged (too few repeats or batches): no verdict, so the page does not call it "within noise".
    if (!c.noiseUnknown) out.beyondNoise[c.metric] = c.beyondNoise;
  }
  return out;
}

/** The stored knee of a run's sweep curve (same variant, load, parameter and grid point), if any. */
export function storedKnee(analysis: Analysis | undefined, run: RunResult) {
  const axes = curveAxes(run);
  const at = axes?.at ? ` (at ${axes.at.parameter}=${axes.at.value})` : "";
  return analysis?.knees.find((k) =>
    k.variant === (run.variant ?? null) && k.load === (run.load ?? null) &&
    k.parameter === axes?.axis.parameter && k.reason.endsWith(at)
  );
}

/** Per-phase bar data for every load with more than one phase; variants as series, repeat means. */
export function buildPhaseComparisons(runs: RunResult[]) {
  const phased = runs.filter((r) => !r.probe && r.phases?.length);
  const multi = (load: string | null) =>
    new Set(phased.filter((r) => (r.load ?? null) === load).flatMap((r) => r.phases!.map((p) => p.name)))
      .size > 1;
  const loads = [...new Set(phased.map((r) => r.load ?? null))].filter(multi);
  return loads.map((load) => {
    const ofLoad = phased.filter((r) => (r.load ?? null) === load);
    const labels = [...new Set(ofLoad.flatMap((r) => r.phases!.map((p) => p.name)))];
    const variants = [...new Set(ofLoad.map((r) => r.variant ?? r.name))];
    return {
      load,
      labels,
      series: variants.map((name) => {
        const mine = ofLoad.filter((r) => (r.variant ?? r.name) === name);
        const at = (label: string, f: (p: NonNullable<RunResult["phases"]>[number]) => number) => {
          const values = mine.flatMap((r) => r.phases!.filter((p) => p.name === label).map(f));
          const m = meanCi(values).mean;
          return Number.isFinite(m) ? round4(m) : null;
        };
        return {
          name,
          mean: labels.map((l) => at(l, (p) => p.latencyMs.mean)),
          p99: labels.map((l) => at(l, (p) => p.latencyMs.p99)),
          success: labels.map((l) => at(l, (p) => p.successRate * 100)),
        };
      }),
    };
  });
}
