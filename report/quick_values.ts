/**
 * @module
 * Pure: what a `--quick` run actually ran, per load, from each run's recorded config (page, CI summary).
 */
import type { ResultsFile } from "../results/mod.ts";
import { round4 } from "../results/stats.ts";

/** "5 s", "500 ms", "1.5 s": a run's duration or timeout as the experiment file would write it. */
const shortMs = (ms: number) => (ms >= 1000 ? `${round4(ms / 1000)} s` : `${round4(ms)} ms`);

/** One run's asked length, rate or connections, and timeout ("5 s at 100/s, timeout 5 s"). */
function runValues(config: Record<string, unknown>): string {
  const phases = Array.isArray(config.phases) ? config.phases as Array<Record<string, number>> : null;
  const durationMs = phases ? phases.reduce((a, p) => a + p.durationMs, 0) : config.durationMs as number;
  const rate = (p: Record<string, number>) =>
    `${p.ratePerSec}${p.rampToPerSec !== undefined ? `→${p.rampToPerSec}` : ""}/s`;
  const rates = phases
    ? phases.map(rate).join(", ")
    : typeof config.ratePerSec === "number"
    ? `${config.ratePerSec}/s`
    : null;
  const length = typeof durationMs === "number" ? shortMs(durationMs) : `${config.requests} requests`;
  const parts = [
    rates ? `${length} at ${rates}` : length,
    typeof config.connections === "number" ? `${config.connections} connections` : null,
    typeof config.timeoutMs === "number" ? `timeout ${shortMs(config.timeoutMs)}` : null,
  ];
  return parts.filter((p) => p !== null).join(", ");
}

/** "Ran with --quick, not the values described above: high: 5 s at 100/s, ..."; null for a full run. */
export function quickRanNote(results: ResultsFile): string | null {
  if (!results.experiment.quick) return null;
  const byLoad = Map.groupBy(results.runs.filter((r) => !r.probe), (r) => r.load ?? "runs");
  const loads = [...byLoad].map(([load, runs]) => {
    const points = runs.flatMap((r) => [r.sweep, r.sweep2]).filter((p) => p !== undefined);
    const sweeps = [...Map.groupBy(points, (p) => p.parameter)]
      .map(([param, ps]) => `${param} ${[...new Set(ps.map((p) => p.value))].join(", ")}`);
    return `${load}: ${runValues(runs[0].config)}${sweeps.length ? `; swept ${sweeps.join("; ")}` : ""}`;
  });
  return loads.length ? `Ran with --quick, not the values described above: ${loads.join(" · ")}.` : null;
}
