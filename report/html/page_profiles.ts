/**
 * @module
 * What the report's CPU profile section needs beyond the runs' own `profiles` (results/schema_profile.ts):
 * every profile (and each of its time windows) as something to pick for a diff, the pairs worth comparing
 * offered ready-made (the last sweep point below a knee against the first above it; the load's first
 * second against the rest, where JIT compiling and the first GCs show), and the sentence that states what
 * profiling costs. Pure; the browser draws it (client/profiles.ts).
 */
import type { RunResult } from "../../results/mod.ts";
import { findKnee } from "../../results/stats.ts";
import { PROFILING_COST } from "../../results/cpu_profile.ts";

/** One profile, or one window of it, that a diff can compare. */
export interface ProfileRef {
  run: string;
  process: string;
  /** Index into the summary's `windows`; null for the whole profile. */
  window: number | null;
  label: string;
}

/** The page's profile data: refs index-aligned, pairs as indices into `refs`. */
export interface PageProfiles {
  /** What profiling costs, with how and where it was measured. */
  cost: string;
  refs: ProfileRef[];
  pairs: Array<{ label: string; a: number; b: number }>;
}

/** The profile refs and ready-made pairs of `runs`; null when no run was profiled. */
export function buildPageProfiles(runs: RunResult[]): PageProfiles | null {
  const profiled = runs.filter((r) => r.profiles?.some((p) => p.summary));
  if (!profiled.length) return null;
  const refs: ProfileRef[] = [];
  const pairs: PageProfiles["pairs"] = [];
  const whole = new Map<string, number>();
  for (const run of profiled) {
    for (const p of run.profiles!) {
      if (!p.summary) continue;
      const several = run.profiles!.length > 1;
      const name = several ? `${run.name} (${p.process})` : run.name;
      whole.set(`${run.name}\0${p.process}`, refs.length);
      refs.push({ run: run.name, process: p.process, window: null, label: name });
      const windows = p.summary.windows.map((w, i) => {
        refs.push({ run: run.name, process: p.process, window: i, label: `${name}: ${w.label}` });
        return refs.length - 1;
      });
      if (windows.length === 2) {
        pairs.push({ label: `${name}: first second of the load vs the rest`, a: windows[0], b: windows[1] });
      }
    }
  }
  pairs.unshift(...kneePairs(profiled, whole));
  return { cost: PROFILING_COST.sentence, refs, pairs };
}

/**
 * Per variant, load and process of a sweep: the last point at the knee against the next one above it
 * (the first repeat of each point), where the profile shows what changed when the target saturated.
 */
function kneePairs(runs: RunResult[], whole: Map<string, number>): PageProfiles["pairs"] {
  const groups = new Map<string, RunResult[]>();
  for (const run of runs) {
    // A categorical sweep (words) has no knee to profile.
    if (typeof run.sweep?.value !== "number" || run.sweep2 || (run.repeat ?? 0) > 0) continue;
    const key = `${run.variant}\0${run.load}\0${run.sweep.parameter}`;
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  const pairs: PageProfiles["pairs"] = [];
  for (const group of groups.values()) {
    const sorted = group.sort((a, b) => (a.sweep!.value as number) - (b.sweep!.value as number));
    const parameter = sorted[0].sweep!.parameter;
    const isRate = /(^|\.)(rate|ratePerSec|requestedRate)$/i.test(parameter);
    const points = sorted.map((r) => ({
      x: r.sweep!.value,
      rps: r.rps,
      p99Ms: r.latencyMs.p99,
      targetRps: r.targetRps,
    }));
    const knee = findKnee(points, isRate);
    if (knee === null || knee + 1 >= sorted.length) continue;
    const [below, above] = [sorted[knee], sorted[knee + 1]];
    for (const p of below.profiles ?? []) {
      const a = whole.get(`${below.name}\0${p.process}`);
      const b = whole.get(`${above.name}\0${p.process}`);
      if (a === undefined || b === undefined) continue;
      pairs.push({
        label:
          `${below.variant ?? ""} ${below.load ?? ""}: at the knee (${parameter}=${below.sweep!.value}) vs ` +
          `above it (${above.sweep!.value})${p.process === "target" ? "" : `, ${p.process}`}`,
        a,
        b,
      });
    }
  }
  return pairs;
}
