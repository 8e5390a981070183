/**
 * @module
 * What `deno task bench` prints and keeps: one row per tool and round (req/s, the ratio to wrk in that
 * round, the target's own count per second in the middle of the run and its ratio to wrk's, the tool's
 * and the target's CPU per request, how busy the target was), the summary over rounds (medians, and each
 * round's ratio, so a reader sees the spread and not one lucky round), and the machine.
 */
import { median } from "../results/stats.ts";

export interface ToolResult {
  /** Which round of the bench (1-based). */
  round?: number;
  tool: string;
  rps: number | null;
  ratioToWrk: number | null;
  /**
   * The bench's nginx's own count of requests per second in the middle of the run (bench/tool_run.ts's
   * `steadyWindow`): every tool measured alike, start-up left out. Null for `--target` or short runs.
   */
  targetSteadyRps?: number | null;
  steadyRatioToWrk?: number | null;
  /** User + system CPU seconds of the tool's process tree, start-up included; null when unknown. */
  cpuSec?: number | null;
  /** cpuSec over the requests it completed (rps x duration), in microseconds. */
  cpuUsPerRequest?: number | null;
  /** The target's (nginx's master and workers) CPU per request meanwhile, in microseconds. */
  targetCpuUsPerRequest?: number | null;
  /** The target's CPU time over the run's duration, % of one core: near 100 the target set the rate. */
  targetBusyPct?: number | null;
  command?: string;
  skipped?: string;
  error?: string;
}

const count = (x: number | null | undefined) => x == null ? "-" : Math.round(x).toLocaleString("en-US");
const ratio = (x: number | null | undefined) => x == null ? "-" : `${x.toFixed(2)}x`;

export function printTable(results: ToolResult[]): void {
  const rows = results.map((r) => [
    r.tool,
    count(r.rps),
    ratio(r.ratioToWrk),
    count(r.targetSteadyRps),
    ratio(r.steadyRatioToWrk),
    r.cpuUsPerRequest == null ? "-" : `${r.cpuUsPerRequest.toFixed(1)} us`,
    r.targetCpuUsPerRequest == null ? "-" : `${r.targetCpuUsPerRequest.toFixed(1)} us`,
    r.targetBusyPct == null ? "-" : `${Math.round(r.targetBusyPct)}%`,
    r.skipped ? `skipped: ${r.skipped}` : r.error ? `failed: ${r.error}` : "",
  ]);
  printRows(
    ["tool", "req/s", "vs wrk", "steady at target", "vs wrk", "CPU/req", "target CPU/req", "target busy", ""],
    rows,
    [0, 8],
  );
}

export function machine(): Record<string, unknown> {
  let cpu = "unknown";
  try {
    cpu = /model name\s*:\s*(.+)/.exec(Deno.readTextFileSync("/proc/cpuinfo"))?.[1] ?? cpu;
  } catch { /* not Linux: keep "unknown" */ }
  return {
    cpu,
    cores: navigator.hardwareConcurrency,
    os: `${Deno.build.os} ${Deno.osRelease()}`,
    deno: Deno.version.deno,
  };
}

/** One tool over all rounds: medians, and its ratio to wrk in each round (each round's own wrk). */
export interface ToolSummary {
  tool: string;
  medianRps: number | null;
  medianRatioToWrk: number | null;
  ratiosByRound: number[];
  /** The same over the target's steady counts (empty where the target does not count). */
  medianSteadyRps: number | null;
  medianSteadyRatioToWrk: number | null;
  steadyRatiosByRound: number[];
  medianCpuUsPerRequest: number | null;
  medianTargetCpuUsPerRequest: number | null;
  medianTargetBusyPct: number | null;
}

/** Per tool, in the order of the first round: the medians over the rounds where it ran. */
export function summarizeRounds(rounds: ToolResult[][]): ToolSummary[] {
  const tools = rounds[0]?.map((r) => r.tool) ?? [];
  const of = (xs: Array<number | null | undefined>) => {
    const m = median(xs.filter((x): x is number => typeof x === "number"));
    return Number.isNaN(m) ? null : m;
  };
  return tools.map((tool) => {
    const mine = rounds.flatMap((round) => round.filter((r) => r.tool === tool && r.rps !== null));
    const ratios = mine.flatMap((r) => r.ratioToWrk === null ? [] : [r.ratioToWrk]);
    const steadyRatios = mine.flatMap((r) => r.steadyRatioToWrk == null ? [] : [r.steadyRatioToWrk]);
    return {
      tool,
      medianRps: of(mine.map((r) => r.rps)),
      medianRatioToWrk: of(ratios),
      ratiosByRound: ratios,
      medianSteadyRps: of(mine.map((r) => r.targetSteadyRps)),
      medianSteadyRatioToWrk: of(steadyRatios),
      steadyRatiosByRound: steadyRatios,
      medianCpuUsPerRequest: of(mine.map((r) => r.cpuUsPerRequest)),
      medianTargetCpuUsPerRequest: of(mine.map((r) => r.targetCpuUsPerRequest)),
      medianTargetBusyPct: of(mine.map((r) => r.targetBusyPct)),
    };
  });
}

/** The summary of several rounds as a table. */
export function printSummary(summary: ToolSummary[]): void {
  const byRound = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(" ");
  const rows = summary.map((s) => [
    s.tool,
    count(s.medianRps),
    ratio(s.medianRatioToWrk),
    byRound(s.ratiosByRound),
    count(s.medianSteadyRps),
    ratio(s.medianSteadyRatioToWrk),
    byRound(s.steadyRatiosByRound),
    s.medianCpuUsPerRequest === null ? "-" : `${s.medianCpuUsPerRequest.toFixed(1)} us`,
    s.medianTargetCpuUsPerRequest === null ? "-" : `${s.medianTargetCpuUsPerRequest.toFixed(1)} us`,
    s.medianTargetBusyPct === null ? "-" : `${Math.round(s.medianTargetBusyPct)}%`,
  ]);
  printRows(
    ["tool", "req/s", "vs wrk", "by round", "steady at target", "vs wrk", "by round", "CPU/req"]
      .concat(["target CPU/req", "target busy"]),
    rows,
    [0, 3, 6],
  );
}

/** A plain text table: the columns in `left` are left-aligned, the others right-aligned. */
function printRows(header: string[], rows: string[][], left: number[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (left.includes(i) ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ")
      .trimEnd();
  console.log(`\n${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ").trimEnd()}`);
  for (const row of rows) console.log(line(row));
}
