/**
 * @module
 * `loadlab run --replay results.json`: a steered run's recorded changes applied again at their instants.
 */
import { loadResultsFile } from "../../results/io.ts";
import { describeChange } from "../../results/schema/steering.ts";
import type { Plan } from "../../scenarios/plan/types.ts";
import { UsageError } from "../usage_error.ts";
import { modelMisfit } from "../../runner/steering.ts";

/** `plan` with each recorded run's changes in its attack config (`steering`); throws `UsageError`. */
export async function withReplayedSchedule(plan: Plan, path: string): Promise<Plan> {
  const recorded = await loadResultsFile(path);
  const steered = recorded.runs.filter((r) => (r.steering ?? []).length > 0);
  if (steered.length === 0) {
    throw new UsageError(`--replay ${path}: no run in it was steered; there is no schedule to replay`);
  }
  const byName = new Map(plan.runs.map((r) => [r.name, r]));
  const problems: string[] = [];
  for (const run of steered) {
    const planned = byName.get(run.name);
    if (!planned) {
      problems.push(`run "${run.name}" is not a run of this experiment (${[...byName.keys()].join(", ")})`);
      continue;
    }
    run.steering!.forEach((change, i) => {
      const misfit = modelMisfit(change.action, planned.attack.model);
      if (misfit) problems.push(`run "${run.name}" steering[${i}] (${describeChange(change)}): ${misfit}`);
    });
  }
  if (problems.length) throw new UsageError(`--replay ${path}:\n  ${problems.join("\n  ")}`);
  const schedules = new Map(steered.map((r) => [r.name, r.steering!]));
  return {
    ...plan,
    runs: plan.runs.map((r) => {
      const steering = schedules.get(r.name);
      return steering ? { ...r, attack: { ...r.attack, steering } } : r;
    }),
  };
}
