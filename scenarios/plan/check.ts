/**
 * @module
 * `checkPlan`: a plan's attacks checked against the engine's config schema, at the keys the user wrote.
 */
import { attackConfigSchema } from "../../runner/config.ts";
import { targetSpecSchema } from "../../targets/spec.ts";
import { formatPath, type Issue, issuesOf } from "../../validation/mod.ts";
import { shownSweepValue } from "../../results/redact.ts";
import type { Plan, PlannedRun, SweepPoint } from "./types.ts";
import { applyParameter } from "./attack.ts";
import { FILE_OPTIONS } from "../schema/loads.ts";

/** The file keys of attack fields, for issues found by the engine's schema. */
const FILE_KEYS: Record<string, string> = {
  ratePerSec: "rate",
  rampToPerSec: "rampTo",
  ...Object.fromEntries(FILE_OPTIONS.map(([key, o]) => [key, o.file])),
  requestMix: "requests",
};

/** Attack fields set once for the whole file, not per load: issues point at the file's key. */
const FILE_WIDE: Record<string, string> = {
  intervalMs: "interval",
  warmupMs: "warmup",
  intervalHistograms: "intervalHistograms",
};

/** A stand-in for the run's URL with its scheme, for the engine's scheme-dependent rules. */
function placeholderUrlOf(target: PlannedRun["target"]): string {
  const spec = target.kind === "spec" ? target.spec as { url?: unknown; tls?: unknown } : null;
  const url = target.kind === "url" ? target.url : spec?.url;
  const https = typeof url === "string" ? url.startsWith("https:") : spec?.tls !== undefined;
  return https ? "https://127.0.0.1/" : "http://127.0.0.1/";
}

/** Every run's attack and search base checked against the engine's config schema, before any load. */
export function checkPlan(plan: Plan): Issue[] {
  const seen = new Map<string, Issue>();
  for (const { run, at } of checkedAttacks(plan)) {
    const parsed = attackConfigSchema.safeParse({ ...at.attack, url: placeholderUrlOf(run.target) });
    if (parsed.success) continue;
    for (const issue of issuesOf(parsed.error, attackConfigSchema)) {
      const path = filePath(plan, at, issue.path);
      if (!seen.has(path + issue.message)) {
        seen.set(path + issue.message, { path, message: `${issue.message} (in run ${run.name})` });
      }
    }
  }
  for (const issue of targetIssues(plan)) if (!seen.has(issue.path)) seen.set(issue.path, issue);
  return [...seen.values(), ...sameNameIssues(plan), ...searchRangeIssues(plan)];
}

/** A search's range ends checked as its probes would run them, before the bisection reaches them. */
function searchRangeIssues(plan: Plan): Issue[] {
  const issues = new Map<string, Issue>();
  for (const search of plan.searches) {
    search.range.forEach((value, i) => {
      const probe = applyParameter(search.base, search.parameter, value);
      const parsed = attackConfigSchema.safeParse({ ...probe.attack, url: placeholderUrlOf(probe.target) });
      if (parsed.success) return;
      const path = formatPath(["search", "range", i]);
      const [issue] = issuesOf(parsed.error, attackConfigSchema);
      const where = `${search.target}/${search.load}`;
      const message = `${issue.message} (in the search's probe of ${where} at ${value})`;
      if (!issues.has(path)) issues.set(path, { path, message });
    });
  }
  return [...issues.values()];
}

/** Two runs of one name: results and files are keyed by it, so they would read as repeats. */
function sameNameIssues(plan: Plan): Issue[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const { name } of plan.runs) (seen.has(name) ? twice : seen).add(name);
  return [...twice].slice(0, 3).map((name) => ({
    path: "sweeps",
    message: `two runs would be named ${JSON.stringify(name)}: the sweeps give one point twice; ` +
      "give each value once (limit a sweep with loads: or targets:, or remove the value from one)",
  }));
}

/**
 * Each attack a run starts, with its run: loads run together are each checked, as each starts its own
 * workers.
 */
function checkedAttacks(plan: Plan): Array<{ run: PlannedRun; at: PlannedRun }> {
  return [...plan.runs, ...plan.searches.map((s) => s.base)].flatMap((run) =>
    run.parts === undefined || run.parts.length === 0
      ? [{ run, at: run }]
      : run.parts.map((part) => ({ run, at: { ...run, load: part.name, attack: part.attack } }))
  );
}

/**
 * Every started target's spec as the run starts it (a `target.*` sweep changes it after the file's check).
 */
function targetIssues(plan: Plan): Issue[] {
  const found: Issue[] = [];
  for (const run of plan.runs) {
    if (run.target.kind !== "spec") continue;
    const parsed = targetSpecSchema.safeParse(run.target.spec);
    if (parsed.success) continue;
    for (const issue of issuesOf(parsed.error, targetSpecSchema)) {
      const field = issue.path.split(/[.[]/)[0];
      const point = [run.sweep, run.sweep2].find((p) => p?.parameter === `target.${field}`);
      const at = point && sweepIndexOf(plan, run, point);
      const path = at
        ? formatPath(["sweeps", at[0], "values", at[1]])
        : `${formatPath(["targets", run.variant])}.${issue.path}`;
      found.push({ path, message: `${issue.message} (in run ${run.name})` });
    }
  }
  return found;
}

/** `phases[0].durationMs` of run `t/burst` -> `loads.burst.phases[0].duration` (or its sweep value). */
function filePath(plan: Plan, run: PlannedRun, enginePath: string): string {
  const load = formatPath(["loads", run.load]);
  if (enginePath === "(root)") return load;
  const parts = enginePath.split(/(?=[.[])/);
  const field = parts[0];
  if (FILE_WIDE[field]) return FILE_WIDE[field];
  const swept = sweepValuePath(plan, run, fileKey(parts.at(-1)!.replace(/^\./, "")));
  if (swept) return swept;
  const rest = parts.slice(1).map((p) => p.startsWith(".") ? `.${fileKey(p.slice(1))}` : p);
  // A load without flows of its own runs the file's (top-level `flows:`), where the step is written.
  const own = field !== "flows" || plan.experiment.loads[run.load]?.flows !== undefined;
  return `${own ? `${load}.` : ""}${fileKey(field)}${rest.join("")}`;
}

function fileKey(field: string): string {
  return FILE_KEYS[field] ?? field;
}

/** `sweeps[i].values[j]` when the run's sweep point set the field `key` (`load.<key>`). */
function sweepValuePath(plan: Plan, run: PlannedRun, key: string): string | undefined {
  for (const point of [run.sweep, run.sweep2]) {
    if (point?.parameter !== `load.${key}`) continue;
    const at = sweepIndexOf(plan, run, point);
    if (at) return formatPath(["sweeps", at[0], "values", at[1]]);
  }
  return undefined;
}

function sweepIndexOf(plan: Plan, run: PlannedRun, point: SweepPoint): [number, number] | undefined {
  const sweeps = plan.experiment.sweeps;
  for (let i = 0; i < sweeps.length; i++) {
    const s = sweeps[i];
    if (s.parameter !== point.parameter) continue;
    if (s.loads && !s.loads.includes(run.load)) continue;
    if (s.targets && !s.targets.includes(run.variant)) continue;
    // The run shows a secret (or a URL password) redacted (scenarios/plan/plan.ts); the file has the value.
    const j = (s.values as Array<number | string>).findIndex((v) =>
      v === point.value || shownSweepValue(s.parameter, v) === point.value
    );
    if (j >= 0) return [i, j];
  }
  return undefined;
}
