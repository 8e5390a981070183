/**
 * @module
 * What `loadlab run` checks about a valid plan before any target starts or any load is sent, beyond
 * the file itself: the targets' files and programs (scenarios/schema_files.ts), the open-file limit
 * against the most sockets any planned run (or capacity-search probe) may hold, and that the CI files
 * (`--summary`, `--junit`) and external targets' log files can be written. Bad input throws `ExperimentError` (one line per problem,
 * exit 2), an unwritable CI file `OutputError` (exit 5).
 *
 * Sockets are counted as `attack` counts them (cli/open_file_limit.ts): a load's connections, or the
 * cap of an open model. An open load without its own `maxConnections` gets the default lowered to fit
 * the limit, as `attack` does, so the default never trips it. Targets run in their own processes with
 * the same limit, each accepting the connections of one run, so the generator's count covers theirs.
 */
import { attackConfigSchema } from "../runner/config.ts";
import { ExperimentError } from "../scenarios/experiment_error.ts";
import type { Plan, PlannedRun } from "../scenarios/plan.ts";
import { checkTargetFiles } from "../scenarios/schema_files.ts";
import { OutputError } from "../results/output_error.ts";
import { formatPath, type Issue } from "../validation/mod.ts";
import { assertFileWritable } from "../system/atomic_write.ts";
import { maxSocketsUnder, socketProblem, socketsOf } from "./open_file_limit.ts";
import { readOpenFileLimit } from "../system/open_file_limit.ts";

export interface PreflightOptions {
  /** Shown in front of each problem, as for any file error. */
  file?: string;
  /** Soft RLIMIT_NOFILE; `undefined` reads it from the system, `null` skips the check. */
  openFileLimit?: number | null;
}

/** The plan checked (throws `ExperimentError`), open loads' default pool fitted to the limit. */
export function preflightPlan(plan: Plan, opts: PreflightOptions = {}): Plan {
  const limit = opts.openFileLimit === undefined ? readOpenFileLimit() : opts.openFileLimit;
  const issues = [...checkTargetFiles(plan), ...socketIssues(plan, limit)];
  if (issues.length > 0) throw new ExperimentError(issues, { file: opts.file });
  if (limit === null || !Number.isFinite(limit)) return plan;
  return {
    ...plan,
    runs: plan.runs.map((run) => fitDefaultPool(run, limit)),
    searches: plan.searches.map((search) => ({ ...search, base: fitDefaultPool(search.base, limit) })),
  };
}

/**
 * The other outputs can be created (before any load, as the output folder is): `files` as
 * `[flag, path]` (`--summary`, `--junit`) and the `logFile` of every external target the plan starts.
 */
export async function assertOutputsWritable(
  plan: Plan,
  files: Array<[string, string | undefined]>,
): Promise<void> {
  const logs = new Map<string, string>();
  for (const run of plan.runs) {
    const spec = run.target.kind === "spec" ? run.target.spec : undefined;
    if (spec?.kind === "external" && spec.logFile) {
      logs.set(formatPath(["targets", run.variant, "logFile"]), spec.logFile);
    }
  }
  for (const [flag, path] of [...files, ...logs]) {
    if (path === undefined) continue;
    await assertFileWritable(path).catch((err) => {
      // Deno's message ends with the call and the probe file's path, which the user never named.
      const why = (err as Error).message.replace(/: [a-z]+ '.*$/s, "");
      throw new OutputError(`${flag} ${path}: cannot write: ${why}`, { cause: err });
    });
  }
}

/** Runs and search probes that would hold more sockets than the limit allows, one issue per field. */
function socketIssues(plan: Plan, limit: number | null): Issue[] {
  const issues = new Map<string, Issue>();
  for (const run of [...plan.runs, ...plan.searches.map((s) => s.base)]) {
    const parsed = attackConfigSchema.safeParse({ ...run.attack, url: "http://127.0.0.1/" });
    if (!parsed.success) continue;
    const { open, sockets } = socketsOf(parsed.data);
    // A default pool is fitted to the limit (fitDefaultPool), so only what the file set is checked.
    if (open && !hasOwnPool(run)) continue;
    const key = open ? "maxConnections" : "connections";
    const problem = socketProblem(sockets, limit, `${key}:`);
    const path = formatPath(["loads", run.load, key]);
    if (problem && !issues.has(path)) {
      issues.set(path, { path, message: `${sockets} ${problem} (in run ${run.name})` });
    }
  }
  for (const [i, search] of plan.searches.entries()) {
    if (!/^load\.(connections|maxConnections)$/.test(search.parameter)) continue;
    const problem = socketProblem(search.range[1], limit, "a range up to");
    if (problem) {
      const path = formatPath(["search", "range"]);
      issues.set(path, {
        path,
        message: `${search.parameter} up to ${search.range[1]} ${problem} (search ${i})`,
      });
    }
  }
  return [...issues.values()];
}

/** An open load without its own `maxConnections`: the default lowered to what the limit allows. */
function fitDefaultPool(run: PlannedRun, limit: number): PlannedRun {
  const attack = run.attack;
  const open = attack.model === "rate" || (attack.model === "count" && attack.ratePerSec !== undefined);
  if (!open || hasOwnPool(run)) return run;
  const parsed = attackConfigSchema.safeParse({ ...attack, url: "http://127.0.0.1/" });
  if (!parsed.success) return run;
  const { sockets } = socketsOf(parsed.data);
  if (sockets <= maxSocketsUnder(limit)) return run;
  return { ...run, attack: { ...attack, maxConnections: maxSocketsUnder(limit) } };
}

/** The load sets `maxConnections` itself (in the file, a sweep or --set). */
function hasOwnPool(run: PlannedRun): boolean {
  return "maxConnections" in run.attack && run.attack.maxConnections !== undefined;
}
