/**
 * @module
 * How many runs an experiment file asks for, counted before any is planned. Pure.
 */
import type { ExperimentFields } from "../schema/object.ts";
import { plannedLoads } from "../together.ts";

/** The most runs one experiment makes: at a run a second, close to three hours. */
const MAX_RUNS = 10_000;

/** The runs `exp` makes (before `--only`), at most: interleaved order drops a point two targets share. */
function runCount(exp: ExperimentFields): number {
  let points = 0;
  for (const target of Object.keys(exp.targets)) {
    for (const load of plannedLoads(exp, Object.keys(exp.loads))) {
      const covering = exp.sweeps.filter((s) =>
        (!s.targets || s.targets.includes(target)) && (!s.loads || s.loads.includes(load))
      );
      const sizes = covering.map((s) => s.values.length);
      if (sizes.length === 0) points += 1;
      else if (exp.grid && sizes.length === 2) points += sizes[0] * sizes[1];
      else points += sizes.reduce((a, b) => a + b, 0);
    }
  }
  return points * exp.repeats;
}

/** The problem of a file making more than `MAX_RUNS` runs, at `repeats` or `sweeps`, or null. */
export function runCountProblem(exp: ExperimentFields): { path: string[]; message: string } | null {
  const count = runCount(exp);
  if (count <= MAX_RUNS) return null;
  const byRepeats = exp.repeats > MAX_RUNS || exp.sweeps.length === 0 || exp.repeats >= count / exp.repeats;
  return {
    path: [byRepeats ? "repeats" : "sweeps"],
    message:
      `${count.toLocaleString("en-US")} runs (targets x loads x sweep points x repeats) are more than ` +
      `one experiment makes, at most ${MAX_RUNS.toLocaleString("en-US")}: give ${
        byRepeats ? "fewer repeats" : "fewer sweep values (a grid multiplies its two sweeps)"
      } or split the file`,
  };
}
