/**
 * @module
 * What `loadlab run` says before the first run: which runtime serves each example framework app.
 */
import type { Plan } from "../../scenarios/plan/types.ts";
import { exampleCommand, EXAMPLES_DIR, EXAMPLES_INSTALL_HINT } from "../../targets/example.ts";
import { findProgram } from "../../system/path_lookup.ts";

/** One line per runtime serving the plan's example apps, with how to get Node's when Deno's serves. */
export function exampleRuntimeLines(plan: Plan, examplesDir: URL = EXAMPLES_DIR): string[] {
  const byRuntime = new Map<string, string[]>();
  const fellBack = new Set<string>();
  for (const run of plan.runs) {
    const spec = run.target.kind === "spec" ? run.target.spec : null;
    if (spec?.kind !== "example") continue;
    let runtime: string;
    try {
      runtime = exampleCommand(spec, examplesDir).runtime;
    } catch {
      continue; // the run fails at its start with the reason and the fix
    }
    const apps = byRuntime.get(runtime) ?? [];
    if (!apps.includes(spec.app)) byRuntime.set(runtime, [...apps, spec.app]);
    if (runtime.includes("npm compat") && spec.runtime !== "deno") fellBack.add(spec.app);
  }
  const lines = [...byRuntime].map(([runtime, apps]) => `example apps ${apps.join(", ")}: ${runtime}`);
  if (fellBack.size) {
    const why = findProgram("node") === null
      ? "node is not on PATH (install Node.js, then run"
      : "their packages are not installed in examples/ (run";
    lines.push(
      `${
        [...fellBack].join(", ")
      } fell back to Deno's npm compatibility: ${why} '${EXAMPLES_INSTALL_HINT}' ` +
        "once to measure them under Node, as the study did)",
    );
  }
  return lines;
}
