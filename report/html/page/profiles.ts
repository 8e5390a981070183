/**
 * @module
 * The CPU profile section's data, pure: profiles to diff, the pairs worth comparing, what profiling costs.
 */
import type { ResultsFile } from "../../../results/mod.ts";
import { kneeSides } from "../../../results/conclude/knee/explained.ts";
import { PROFILING_COST } from "../../../results/cpu_profile.ts";

/** One profile, or one window of it, that a diff can compare. */
export interface ProfileRef {
  run: string;
  process: string;
  /** Index into the summary's `windows`; null for the whole profile. */
  window: number | null;
  label: string;
}

/** Two profiles worth diffing, as indices into the page's `refs`. */
type ProfilePair = { label: string; a: number; b: number };

/** The profile refs, ready-made pairs and what profiling costs; null when no run was profiled. */
export function buildPageProfiles(results: ResultsFile) {
  const profiled = results.runs.filter((r) => r.profiles?.some((p) => p.summary));
  if (!profiled.length) return null;
  const refs: ProfileRef[] = [];
  const pairs: ProfilePair[] = [];
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
  pairs.unshift(...kneePairs(results, whole));
  return { cost: PROFILING_COST.sentence, refs, pairs };
}

/** Per stored knee with sides and process profiled at both: the first profiled run of each side. */
function kneePairs(results: ResultsFile, whole: Map<string, number>): ProfilePair[] {
  const pairs: ProfilePair[] = [];
  for (const k of kneeSides(results)) {
    const below = k.below.runs.find((r) => r.profiles?.length),
      above = k.above.runs.find((r) => r.profiles?.length);
    if (!below || !above) continue;
    for (const p of below.profiles ?? []) {
      const a = whole.get(`${below.name}\0${p.process}`);
      const b = whole.get(`${above.name}\0${p.process}`);
      if (a === undefined || b === undefined) continue;
      pairs.push({
        label: `${below.variant ?? ""} ${below.load ?? ""}: at the knee (${k.parameter}=${k.below.x}) vs ` +
          `above it (${k.above.x})${p.process === "target" ? "" : `, ${p.process}`}`,
        a,
        b,
      });
    }
  }
  return pairs;
}
