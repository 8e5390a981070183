/**
 * @module
 * What loading a plan checks on this machine before any target starts: files, programs, sockets.
 */
import { attackConfigSchema } from "../../runner/config.ts";
import { maxSocketsUnder, portProblem, socketProblem, socketsOf } from "../../runner/socket_budget.ts";
import { readLocalPorts, unbindableAddress } from "../../system/ports.ts";
import { formatPath, type Issue } from "../../validation/mod.ts";
import { ExperimentError } from "../experiment_error.ts";
import type { Plan, PlannedRun } from "./types.ts";
import { checkTargetFiles } from "../schema/files.ts";
import { mapRuns } from "./plan.ts";
import { pacingOf } from "../../runner/load/models/mod.ts";

interface PreflightOptions {
  /** Shown in front of each problem, as for any file error. */
  file?: string;
  /** Soft RLIMIT_NOFILE (`Infinity` when unlimited); `null` or left out: unknown, the check skipped. */
  openFileLimit?: number | null;
  /** Local ports of a source address per destination; left out: read from the system, `null`: skipped. */
  localPorts?: number | null;
}

/** The plan checked (throws `ExperimentError`), open loads' default pool fitted to the limit. */
export function preflightPlan(plan: Plan, opts: PreflightOptions = {}): Plan {
  const limit = opts.openFileLimit ?? null;
  const ports = opts.localPorts === undefined ? readLocalPorts() : opts.localPorts;
  const issues = [...checkTargetFiles(plan), ...socketIssues(plan, limit, ports)];
  if (issues.length > 0) throw new ExperimentError(issues, { file: opts.file });
  if (limit === null || !Number.isFinite(limit)) return plan;
  return mapRuns(plan, (run) => fitDefaultPool(run, limit));
}

/** Runs and probes that would hold more sockets than the limits allow, or send from a foreign address. */
function socketIssues(plan: Plan, limit: number | null, ports: number | null): Issue[] {
  const issues = new Map<string, Issue>();
  const add = (path: string, message: string) => {
    if (!issues.has(path)) issues.set(path, { path, message });
  };
  for (const run of [...plan.runs, ...plan.searches.map((s) => s.base)]) {
    const parsed = attackConfigSchema.safeParse({ ...run.attack, url: "http://127.0.0.1/" });
    if (!parsed.success) continue;
    const sources = parsed.data.sourceAddresses;
    const unbindable = sources ? unbindableAddress(sources) : null;
    const sourcesPath = formatPath(["loads", run.load, "sourceAddresses"]);
    if (unbindable !== null) add(sourcesPath, `cannot send from ${unbindable} (in run ${run.name})`);
    const { open, sockets, stage } = socketsOf(parsed.data);
    // A default pool is fitted to the limit (fitDefaultPool), so only what the file set is checked.
    if (open && !hasOwnPool(run)) continue;
    const key = open ? "maxConnections" : "connections";
    const fix = stage === undefined ? `${key}:` : "a stage target of";
    const problem = socketProblem(sockets, limit, fix, parsed.data.segment?.count) ??
      portProblem(sockets, sources?.length ?? 1, ports);
    const path = formatPath(
      stage === undefined ? ["loads", run.load, key] : ["loads", run.load, "stages", stage],
    );
    if (problem) add(path, `${sockets} ${problem} (in run ${run.name})`);
  }
  for (const [i, search] of plan.searches.entries()) {
    if (!/^load\.(connections|maxConnections)$/.test(search.parameter)) continue;
    const problem = socketProblem(search.range[1], limit, "a range up to");
    const path = formatPath(["search", "range"]);
    const message = `${search.parameter} up to ${search.range[1]} ${problem} (search ${i})`;
    if (problem) issues.set(path, { path, message });
  }
  return [...issues.values()];
}

/** An open load without its own `maxConnections`: the default lowered to what the limit allows. */
function fitDefaultPool(run: PlannedRun, limit: number): PlannedRun {
  const attack = run.attack;
  if (pacingOf(attack) !== "open" || hasOwnPool(run)) return run;
  const parsed = attackConfigSchema.safeParse({ ...attack, url: "http://127.0.0.1/" });
  if (!parsed.success) return run;
  const { sockets } = socketsOf(parsed.data);
  if (sockets <= maxSocketsUnder(limit)) return run;
  return { ...run, attack: { ...attack, maxConnections: maxSocketsUnder(limit) } as typeof attack };
}

/** The load sets `maxConnections` itself (in the file, a sweep or --set). */
function hasOwnPool(run: PlannedRun): boolean {
  return "maxConnections" in run.attack && run.attack.maxConnections !== undefined;
}
