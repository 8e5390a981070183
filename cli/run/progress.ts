/**
 * @module
 * What `loadlab run` prints before and while an experiment goes, on a terminal and in a log; a run of
 * several endpoints gets their table (not with `quiet`, nor for a capacity-search probe).
 */
import { terminalSafe } from "../../validation/terminal_text.ts";
import type { Plan } from "../../scenarios/plan/types.ts";
import { exampleCommand, EXAMPLES_DIR, EXAMPLES_INSTALL_HINT } from "../../targets/example.ts";
import { findProgram } from "../../system/path_lookup.ts";
import type { AttackProgress, RunResult } from "../../results/mod.ts";
import type { RunPlanHooks } from "../../scenarios/run/run_plan.ts";
import {
  formatCount,
  formatDurationMs,
  formatEta,
  formatNumber,
  formatPercent,
  protocolTag,
} from "../../results/text_format.ts";
import { cacheBypassSentence } from "../../report/cache_bypass.ts";
import { renderChecks } from "../../report/terminal/summary.ts";
import { endpointLines } from "../../report/terminal/endpoints.ts";
import { runVerdict } from "../../results/conclude/run_verdict.ts";
import { achievedAbove, formatShare, sendFacts } from "../../results/conclude/send_counts.ts";
import {
  measuredSuccessRate,
  requestSendsOf,
  sampledLatency,
  sessionsEnded,
} from "../../results/conclude/responses.ts";
import { drainedNote, unfinishedNote } from "../../results/conclude/served_rate.ts";
import { busyMachineNote } from "../../results/conclude/own_waits.ts";

/** Hooks for `runPlan` that print progress to stdout (the live line goes to stderr). */
export function runProgress(opts: {
  live: { onProgress?: (p: AttackProgress) => void; done(): void };
  terminal: boolean;
  /** Only the summary line and the checks of a run: no endpoint table. */
  quiet?: boolean;
  /** Where every endpoint is listed (the endpoint table's line counting those it leaves out). */
  everyOne?: string;
}): RunPlanHooks {
  let position = "";
  return {
    onRunStart(run, i, n, etaMs) {
      position = `run ${i + 1}/${n}`;
      if (opts.terminal) console.log(`${position} ${terminalSafe(run.name)}  ETA ${formatEta(etaMs)}`);
    },
    onProgress: opts.live.onProgress,
    onRunEnd(result) {
      opts.live.done();
      const prefix = result.probe ? "search probe " : opts.terminal ? "  " : `${position} `;
      console.log(prefix + summaryLine(result));
      const endpoints = opts.quiet || result.probe
        ? []
        : endpointLines(result, { everyOne: opts.everyOne, indent: "  " });
      if (endpoints.length) console.log(endpoints.join("\n"));
      // Flow checks (k6's checks) per run: a failing check must not show only as a lower success rate.
      const checks = renderChecks(result);
      if (checks.length) console.log(checks.map((line) => `  ${line}`).join("\n"));
      const bypass = cacheBypassSentence(result);
      if (bypass) console.log(`${prefix}warning: ${bypass}`);
      for (const note of profileNotes(result)) console.log(`${prefix}warning: ${note}`);
      // The run's results are written by now: a failed teardown is said, never a lost run.
      if (result.teardownError) console.log(`${prefix}warning: ${terminalSafe(result.teardownError)}`);
    },
  };
}

/** What qualifies the run's CPU profiles, one line a process. */
export function profileNotes(run: RunResult): string[] {
  return (run.profiles ?? []).flatMap((p) => {
    const note = p.error ?? p.warning;
    return note === undefined ? [] : [`CPU profile of ${terminalSafe(p.process)}: ${terminalSafe(note)}`];
  });
}

/** One line per finished run, the run verdict last so no number shows without what qualifies it. */
export function summaryLine(run: RunResult): string {
  const f = sendFacts(run);
  const rate = requestSendsOf(run) === 0 && sessionsEnded(run) > 0
    ? `${formatNumber(sessionsPerSec(run), 1)} sessions/s, no HTTP request`
    : f.requestedRps === null
    ? `${formatNumber(run.rps, 1)} req/s`
    : `${formatNumber(run.rps, 1)} of ${formatNumber(f.requestedRps, 0)} req/s requested` +
      `${achievedAbove(run) ? " (above requested)" : ""}, sent ${formatCount(f.sent)}, ` +
      `dropped ${formatCount(f.dropped)} (${formatShare(f.droppedShare)})`;
  // What the achieved rate leaves out, and what the run's own stop cut: beside it, never as failures.
  const beside = [drainedNote(run), unfinishedNote(run), busyMachineNote(run)].filter((note) => note !== "");
  const verdict = runVerdict(run);
  const protocol = protocolTag(run);
  const latency = sampledLatency(run);
  return [
    terminalSafe(run.name) + (protocol ? ` [${protocol}]` : ""),
    [rate, ...beside].join(", "),
    `p50 ${formatDurationMs(latency.p50)}`,
    `p99 ${formatDurationMs(latency.p99)}`,
    `success ${formatPercent(measuredSuccessRate(run))}${f.dropped > 0 ? " of sent" : ""}`,
    verdict.ok ? "[ok]" : `[${verdict.label}]`,
    // The profiler's cost is in these numbers (docs/PROFILES.md).
    ...(run.profiles?.length ? ["(profiled)"] : []),
  ].join("  ");
}

/** Sessions ended a second (a script whose sessions sent no HTTP request). */
function sessionsPerSec(run: RunResult): number {
  return run.durationSec > 0 ? sessionsEnded(run) / run.durationSec : 0;
}

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
      `${[...fellBack].join(", ")} fell back to Deno's npm compatibility: ${why} ` +
        `'${EXAMPLES_INSTALL_HINT}' once to measure them under Node, as the study did)`,
    );
  }
  return lines;
}
