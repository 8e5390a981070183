/**
 * @module
 * `checkPlan`: a planned experiment's attacks checked against the engine's own config schema
 * (runner/config.ts) when the file is loaded, so a value only the engine refuses fails before any load,
 * with the issue pointing at the file's load and key (`loads.burst.workers`) rather than the engine's
 * field name. Pure.
 */
import { attackConfigSchema } from "../runner/config.ts";
import { formatPath, type Issue, issuesOf } from "../validation/mod.ts";
import type { Plan } from "./plan.ts";

/** The file keys of attack fields, for issues found by the engine's schema. */
const FILE_KEYS: Record<string, string> = {
  durationMs: "duration",
  ratePerSec: "rate",
  rampToPerSec: "rampTo",
  timeoutMs: "timeout",
  lateBoundMs: "lateBound",
  gracefulStopMs: "gracefulStop",
  requestMix: "requests",
};

/**
 * Every run's attack (and every search's base) checked against the engine's config schema, so what
 * only the engine knows fails before any load. Issues point at the load (`loads.x.workers`) and name
 * the first run they were found in.
 */
export function checkPlan(plan: Plan): Issue[] {
  const seen = new Map<string, Issue>();
  for (const run of [...plan.runs, ...plan.searches.map((s) => s.base)]) {
    const parsed = attackConfigSchema.safeParse({ ...run.attack, url: "http://127.0.0.1/" });
    if (parsed.success) continue;
    for (const issue of issuesOf(parsed.error, attackConfigSchema)) {
      const [field, ...rest] = issue.path.split(/(?=[.[])/);
      const load = formatPath(["loads", run.load]);
      const path = issue.path === "(root)" ? load : `${load}.${FILE_KEYS[field] ?? field}${rest.join("")}`;
      if (!seen.has(path + issue.message)) {
        seen.set(path + issue.message, { path, message: `${issue.message} (in run ${run.name})` });
      }
    }
  }
  return [...seen.values()];
}
