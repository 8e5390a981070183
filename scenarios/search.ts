/**
 * @module
 * Capacity search: the largest value of a parameter that still meets an SLO, by bisection.
 */
import type { Analysis, RunResult } from "../results/mod.ts";
import { ConfigError } from "../validation/config_error.ts";
import { evaluateThresholds, parseThreshold, type Threshold } from "../results/thresholds/threshold.ts";
import type { SearchPlan } from "./plan/types.ts";
import { splitSlo } from "./schema/checks.ts";
import { capacityQualifiers } from "../results/conclude/capacity.ts";

/** What `searchCapacity` needs of a plan (the whole `SearchPlan` fits). */
export type SearchSpec = Pick<
  SearchPlan,
  "parameter" | "target" | "load" | "range" | "slo" | "precision" | "maxProbes"
>;

/** The result stored in `results.analysis.searches`. */
type SearchResult = Analysis["searches"][number];

/** Parses an SLO: threshold expressions joined by `and`, each in `--threshold`'s grammar. */
export function parseSlo(slo: string): Threshold[] {
  const parts = splitSlo(slo).map((p) => p.trim());
  if (parts.length === 0) {
    throw new ConfigError([{
      path: `slo "${slo}"`,
      message: `write it like "p99 < 100ms and success >= 99.9%"`,
    }]);
  }
  return parts.map((part) => {
    const threshold = parseThreshold(part);
    if (threshold.run !== undefined) {
      throw new ConfigError([{
        path: `slo "${slo}"`,
        message: `"${part}" names a run; an SLO applies to every probe, drop "${threshold.run}:"`,
      }]);
    }
    return threshold;
  });
}

/** The p99 limit of an SLO in ms (for the knees of sweeps), when it has one. */
export function sloP99Ms(thresholds: Threshold[]): number | undefined {
  return thresholds.find((t) => t.metric === "p99" && (t.op === "<" || t.op === "<="))?.value;
}

/** Whether a probe meets every part of the SLO; a probe without a single response never does. */
export function meetsSlo(thresholds: Threshold[], run: RunResult): boolean {
  if (run.requests === 0 || run.incomplete) return false;
  return evaluateThresholds(thresholds, [run]).every((r) => r.ok);
}

/** A value halfway between; whole numbers stay whole (rates, connections) when the ends are whole. */
function midpoint(lo: number, hi: number): number {
  const mid = (lo + hi) / 2;
  return Number.isInteger(lo) && Number.isInteger(hi) ? Math.round(mid) : mid;
}

/** Runs the bisection; `probe(value)` runs one short probe at `value` and returns its result. */
export async function searchCapacity(
  plan: SearchSpec,
  probe: (value: number) => Promise<RunResult>,
): Promise<SearchResult> {
  const ran: RunResult[] = [];
  const found = await bisect(plan, async (value) => {
    const run = await probe(value);
    ran.push(run);
    return run;
  });
  return { ...found, qualifiers: capacityQualifiers(found, ran) };
}

/** The bisection of `searchCapacity`, its order of probes as the module comment says. */
async function bisect(plan: SearchSpec, probe: (value: number) => Promise<RunResult>): Promise<SearchResult> {
  const slo = parseSlo(plan.slo);
  const probes: SearchResult["probes"] = [];
  const check = async (value: number) => {
    const run = await probe(value);
    const ok = meetsSlo(slo, run);
    probes.push({ value, run: run.name, ok });
    return { value, run: run.name, ok };
  };
  const base = { parameter: plan.parameter, target: plan.target, load: plan.load, slo: plan.slo };
  const [rangeLo, rangeHi] = plan.range;
  let low = await check(rangeLo);
  if (!low.ok) return { ...base, value: null, low: null, high: probeSummary(low), confirmRun: null, probes };
  let high: { value: number; run: string } | null = null;
  if (rangeHi > rangeLo) {
    const top = await check(rangeHi);
    if (top.ok) low = top;
    else high = top;
  }
  while (high && high.value - low.value > plan.precision * low.value && probes.length < plan.maxProbes) {
    const mid = midpoint(low.value, high.value);
    if (mid <= low.value || mid >= high.value) break;
    const at = await check(mid);
    if (at.ok) low = at;
    else high = at;
  }
  const confirm = await check(low.value);
  if (confirm.ok) {
    return {
      ...base,
      value: low.value,
      low: probeSummary(low),
      high: high && probeSummary(high),
      confirmRun: confirm.run,
      probes,
    };
  }
  const below = probes.filter((p) => p.ok && p.value < low.value).sort((a, b) => b.value - a.value)[0];
  return {
    ...base,
    value: below?.value ?? null,
    low: below ? probeSummary(below) : null,
    high: probeSummary(confirm),
    confirmRun: confirm.run,
    probes,
  };
}

/** The value and run name of a probe, without its verdict: how the bounds of a search are stored. */
function probeSummary(p: { value: number; run: string }): { value: number; run: string } {
  return { value: p.value, run: p.run };
}
