/**
 * @module
 * `loadlab run --segment i/N`: the plan of one shard of a load split over several machines.
 */
import { parseAttackConfig } from "../../runner/config.ts";
import { ConfigError } from "../../validation/config_error.ts";
import type { Plan, PlannedRun } from "./types.ts";
import { ExperimentError } from "../experiment_error.ts";
import type { Issue } from "../../validation/mod.ts";

/** One segment of N, as `--segment i/N` gives it. */
export interface PlanSegment {
  index: number;
  count: number;
}

/** The plan of shard `segment`; throws `ExperimentError` listing what makes the experiment unsplittable. */
export function segmentPlan(plan: Plan, segment: PlanSegment, startAtEpochMs?: number): Plan {
  const issues = unsplittable(plan);
  const runs = plan.runs.map((run, i) => ({
    ...run,
    attack: {
      ...run.attack,
      segment,
      ...(i === 0 && startAtEpochMs !== undefined ? { startAtEpochMs } : {}),
    },
  }));
  for (const run of runs) issues.push(...segmentIssues(run));
  if (issues.length) throw new ExperimentError(issues);
  return { ...plan, runs };
}

/** What keeps `plan` from being split: started targets, searches, `warmup: auto`, `abortOnFail`. */
function unsplittable(plan: Plan): Issue[] {
  const issues: Issue[] = [];
  const started = [...new Set(plan.runs.filter((r) => r.target.kind !== "url").map((r) => r.variant))];
  for (const name of started) {
    issues.push({
      path: `targets.${name}`,
      message: "--segment needs url: targets (a server already running that every shard loads); " +
        "loadlab would start this one itself in every shard. Start it once and pass --target " +
        `${name}=http://HOST:PORT`,
    });
  }
  if (plan.searches.length) {
    issues.push({
      path: "search",
      message:
        "a capacity search cannot run with --segment: each probe needs the merged result of every shard",
    });
  }
  if (plan.runs.some((r) => r.warmupAuto)) {
    issues.push({
      path: "warmup",
      message:
        "warmup: auto cannot run with --segment (shards would cut at different points); give a duration",
    });
  }
  plan.experiment.thresholds.forEach((t, i) => {
    if (!t.abortOnFail) return;
    issues.push({
      path: `thresholds[${i}].abortOnFail`,
      message: "cannot stop a --segment shard: it holds part of the load and its thresholds are judged by " +
        "loadlab merge on the whole; drop abortOnFail for the shards (attack's --abort-on-fail is refused too)",
    });
  });
  return issues;
}

/** The problems of one segmented run's attack config, each naming the run; none when it parses. */
function segmentIssues(run: PlannedRun): Issue[] {
  try {
    parseAttackConfig({ ...run.attack, url: "http://127.0.0.1/" });
    return [];
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.issues.map((issue) => ({ ...issue, message: `${issue.message} (in run ${run.name})` }));
  }
}
