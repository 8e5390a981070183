/**
 * @module
 * One run from the loads that ran at the same time against one target (an experiment's `together:`,
 * k6's scenarios): added up as shards of one run are (results/merge_shard_runs.ts: counters summed,
 * histograms added, intervals aligned by their absolute start, so a load that started 30 s later lands
 * 30 s into the run; the verdict made again from the sums), except what differs between loads: a
 * script's sessions are one flow whose steps and checks add up by their label and name (each load ran
 * its own function, so steps are not in one order), and the run was stopped by a threshold if any load
 * was. Each load's requests stay apart by their endpoints (a k6 request carries its scenario's name as
 * the `scenario` tag). The config shown is the first load's; the loads' own are the plan's. Pure.
 */
import type { RunResult } from "./mod.ts";
import { mergeShardRuns } from "./merge_shard_runs.ts";

type Flow = NonNullable<RunResult["flows"]>[number];
type Step = Flow["steps"][number];

/** The loads' runs as one run named `name`. */
export function mergeParts(name: string, runs: RunResult[]): RunResult {
  if (runs.length === 1) return { ...runs[0], name };
  // Aligned by when each load's schedule started (its start instant), not by when its run was set up.
  const merged = mergeShardRuns(runs.map(scheduledStart));
  const abortedBy = runs.find((r) => r.abortedBy)?.abortedBy;
  const flows = mergeFlowsByName(runs);
  return {
    ...merged,
    name,
    ...(flows.length > 0 ? { flows } : {}),
    ...(abortedBy ? { abortedBy } : {}),
  };
}

/** `run` dated by its schedule's start (`config.startAtEpochMs`) when it has one. */
function scheduledStart(run: RunResult): RunResult {
  const at = Number(run.config.startAtEpochMs);
  return Number.isFinite(at) && at > 0 ? { ...run, startedAt: new Date(at).toISOString() } : run;
}

/** Flows with one name added up; their steps by label and each step's checks by name. */
function mergeFlowsByName(runs: RunResult[]): Flow[] {
  const byName = new Map<string, Flow>();
  for (const flow of runs.flatMap((r) => r.flows ?? [])) {
    const into = byName.get(flow.name);
    if (into === undefined) {
      byName.set(flow.name, {
        ...flow,
        steps: flow.steps.map((s) => ({ ...s, checks: s.checks?.map((c) => ({ ...c })) })),
      });
      continue;
    }
    into.sessions += flow.sessions;
    into.completed += flow.completed;
    into.failed += flow.failed;
    // Session durations of different functions cannot be added from their summaries.
    into.sessionMs = null;
    for (const step of flow.steps) addStep(into, step);
  }
  return [...byName.values()];
}

function addStep(flow: Flow, step: Step): void {
  const into = flow.steps.find((s) => s.label === step.label);
  if (into === undefined) {
    flow.steps.push({ ...step, checks: step.checks?.map((c) => ({ ...c })) });
    return;
  }
  into.requests += step.requests;
  into.errors += step.errors;
  into.latencyMs = null;
  for (const check of step.checks ?? []) {
    const same = into.checks?.find((c) => c.name === check.name);
    if (same === undefined) (into.checks ??= []).push({ ...check });
    else same.passed += check.passed, same.failed += check.failed;
  }
}
