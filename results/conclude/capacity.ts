/**
 * @module
 * What a capacity search may claim: a value on runs loadlab limited is what loadlab sustained. Pure.
 */
import type { Analysis, RunResult } from "../mod.ts";
import { loadlabFlags } from "./judged.ts";
import { runVerdict } from "./run_verdict.ts";
import { formatCount, formatNumber } from "../text_format.ts";

/** One capacity search as results.json stores it (`analysis.searches`). */
export type StoredSearch = Analysis["searches"][number];

const MAY_BE_HIGHER = "the target's limit may be higher";

/** A searched value as every place states it: "4,800", or "0.25" for a fraction. */
const count = (x: number) => Number.isInteger(x) ? formatCount(x) : formatNumber(x, 2);

/** The runs of these names in `runs`, in order, each once; a name not in the file is left out. */
function runsNamed(runs: RunResult[], names: Array<string | null | undefined>): RunResult[] {
  const wanted = new Set(names.filter((n): n is string => !!n));
  return runs.filter((r) => wanted.has(r.name));
}

/** Every run-verdict flag label of these runs, one per kind (the first run's label of it: "dropped 96%"). */
function allFlags(runs: RunResult[]): string[] {
  const byKind = new Map<string, string>();
  for (const f of runs.flatMap((r) => runVerdict(r).flags)) {
    if (!byKind.has(f.kind)) byKind.set(f.kind, f.label);
  }
  return [...byKind.values()];
}

/** The runs the value rests on, the confirming run first: its labels ("dropped 96%") are the last word. */
const valueRuns = (search: StoredSearch, runs: RunResult[]) =>
  search.value === null
    ? []
    : [...runsNamed(runs, [search.confirmRun]), ...runsNamed(runs, [search.low?.run])];

/** Whether the value found rests on runs loadlab limited (then it is never called the target's capacity). */
const capacityIsLoadlabs = (search: StoredSearch, runs: RunResult[]) =>
  loadlabFlags(valueRuns(search, runs)).length > 0;

/** What qualifies a search's result, one clause each; empty when its runs are clean. */
export function capacityQualifiers(search: StoredSearch, runs: RunResult[]): string[] {
  const out: string[] = [];
  const flags = allFlags(valueRuns(search, runs));
  if (flags.length) {
    const loadlabs = capacityIsLoadlabs(search, runs)
      ? `: loadlab's numbers, not the target's; ${MAY_BE_HIGHER}`
      : "";
    out.push(`${flags.join(", ")} at ${count(search.value!)}, the value found${loadlabs}`);
  }
  const above = search.high ? loadlabFlags(runsNamed(runs, [search.high.run])) : [];
  if (above.length) {
    const at = count(search.high!.value);
    out.push(
      `${above.join(", ")} at ${at}, where the SLO failed: the failure may be loadlab's; ${MAY_BE_HIGHER}`,
    );
  }
  return out;
}

/** The value part of the sentence: "65 (fails at 110)", "not met even at the low end of the range". */
export function capacityFound(search: StoredSearch, runs: RunResult[]): string {
  const bracket = search.value === null
    ? []
    : [search.high ? `fails at ${count(search.high.value)}` : "the top of the range passed"];
  const why = [...bracket, ...capacityQualifiers(search, runs)];
  const value = search.value === null ? "not met even at the low end of the range" : count(search.value);
  return why.length ? `${value} (${why.join("; ")})` : value;
}

/** The search's result in one sentence ("capacity of t/l: load.rate = 65 (fails at 110) ..."). */
export function capacityText(search: StoredSearch, runs: RunResult[]): string {
  const what = capacityIsLoadlabs(search, runs) ? "capacity search" : "capacity";
  const probes = `${search.probes.length} probe${search.probes.length === 1 ? "" : "s"}`;
  const found = capacityFound(search, runs);
  return `${what} of ${search.target}/${search.load}: ${search.parameter} = ${found} under ${search.slo}, ${probes}`;
}
