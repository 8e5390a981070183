/**
 * @module
 * What `profile: cpu` costs the target, from the results of docs/profile-cost.yaml (each target unprofiled
 * and `<name>-profiled`, interleaved rounds): per target and load, the median over rounds of the profiled
 * run's req/s against the unprofiled run of the same round (adjacent in time, so a busy machine's drift
 * hits both alike), and the same for the target's CPU time per request (from the telemetry, after the
 * warm-up), which a busy machine disturbs less than req/s.
 *
 *   deno task loadlab run docs/profile-cost.yaml --out-dir out/profile-cost
 *   deno run -A bench/profile_cost.ts out/profile-cost/results.json
 */
import { parseResultsFile, type RunResult } from "../results/mod.ts";
import { median } from "../results/stats.ts";

/** CPU seconds the target's first process spent per measured request, in µs; NaN without telemetry. */
function cpuUsPerRequest(run: RunResult): number {
  const series = run.telemetry?.find((t) => t.kind === "process");
  if (!series || run.requests === 0) return NaN;
  const fromMs = run.warmupSec * 1000;
  let cpuSec = 0, lastMs = 0;
  for (const s of series.samples as Array<{ tMs: number; cpuPercent?: number }>) {
    if (s.tMs > fromMs) cpuSec += ((s.cpuPercent ?? 0) / 100) * ((s.tMs - lastMs) / 1000);
    lastMs = s.tMs;
  }
  return (cpuSec / run.requests) * 1e6;
}

const pct = (ratio: number) => `${ratio >= 1 ? "+" : "−"}${Math.abs((ratio - 1) * 100).toFixed(1)}%`;

if (import.meta.main) {
  const parsed = parseResultsFile(JSON.parse(await Deno.readTextFile(Deno.args[0])));
  if (!parsed.ok) throw new Error(`${Deno.args[0]}: ${parsed.problem}`);
  const runs = parsed.results.runs;
  const key = (r: RunResult) => `${r.variant}\0${r.load}\0${r.repeat ?? 0}`;
  const byKey = new Map(runs.map((r) => [key(r), r]));
  const rows = new Map<string, { rps: number[]; cpu: number[]; plain: number[]; profiled: number[] }>();
  for (const run of runs.filter((r) => r.variant?.endsWith("-profiled"))) {
    const base = byKey.get(key({ ...run, variant: run.variant!.slice(0, -"-profiled".length) }));
    if (!base) continue;
    const name = `${base.variant} ${run.load}`;
    const row = rows.get(name) ?? { rps: [], cpu: [], plain: [], profiled: [] };
    row.rps.push(run.rps / base.rps);
    row.cpu.push(cpuUsPerRequest(run) / cpuUsPerRequest(base));
    row.plain.push(base.rps);
    row.profiled.push(run.rps);
    rows.set(name, row);
  }
  console.log(
    "target load | rounds | req/s unprofiled -> profiled (medians) | req/s change | CPU/request change",
  );
  for (const [name, r] of rows) {
    console.log(
      `${name} | ${r.rps.length} | ${median(r.plain).toFixed(0)} -> ${median(r.profiled).toFixed(0)} | ` +
        `${pct(median(r.rps))} (rounds ${r.rps.map(pct).join(" ")}) | ${pct(median(r.cpu))}`,
    );
  }
}
