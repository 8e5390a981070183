/**
 * @module
 * `loadlab merge`: a checked set of segment shards into one results file, pending thresholds judged. Pure.
 */
import type { ResultsFile, RunResult, ShardsSummary, ThresholdResult } from "../mod.ts";
import { evaluateThresholds, parseThreshold } from "../thresholds/threshold.ts";
import { alignShards, mergeShardRuns } from "./shard_runs.ts";

/** One shard's results file and the name it was given as. */
export interface ShardFile {
  file: string;
  results: ResultsFile;
}

/** A set of files that cannot be merged; `problems` says every reason, one line each. */
export class MergeError extends Error {
  override name = "MergeError";
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
  }
}

/** Config fields that differ between the shards of one load by design. */
const PER_SHARD_CONFIG = new Set(["url", "segment", "startAtEpochMs", "logFile"]);

interface Shard extends ShardFile {
  index: number;
  count: number;
}

function identify(files: ShardFile[], problems: string[]): Shard[] {
  const shards: Shard[] = [];
  for (const f of files) {
    const segments = f.results.runs.map((r) => r.segment);
    if (f.results.runs.length === 0) problems.push(`${f.file}: no runs in it`);
    else if (segments.some((s) => s === undefined)) {
      problems.push(`${f.file}: not a shard (its runs have no segment: run it with --segment i/N)`);
    } else {
      const kinds = new Set(segments.map((s) => `${s!.index}/${s!.count}`));
      if (kinds.size > 1) problems.push(`${f.file}: runs of different segments (${[...kinds].join(", ")})`);
      else shards.push({ ...f, index: segments[0]!.index, count: segments[0]!.count });
      // Latency adds only by histograms: one left out would leave its requests out of every percentile.
      for (const r of f.results.runs.filter((r) => r.requests > 0 && !r.histogramEncoded)) {
        problems.push(
          `${f.file}: run "${r.name}" has no histogramEncoded, so its latencies cannot be added; ` +
            "give the results.json its shard wrote, whole",
        );
      }
    }
  }
  return shards;
}

function checkSet(shards: Shard[], problems: string[]): void {
  const names = new Set(shards.map((s) => s.results.experiment.name));
  if (names.size > 1) {
    problems.push(
      "shards of different experiments: " +
        shards.map((s) => `${s.file} is "${s.results.experiment.name}"`).join(", "),
    );
  }
  const counts = new Set(shards.map((s) => s.count));
  if (counts.size > 1) {
    const each = shards.map((s) => `${s.file} is ${s.index}/${s.count}`);
    problems.push(`shards of different segment sets: ${each.join(", ")}`);
  }
  for (const [index, same] of Map.groupBy(shards, (s) => s.index)) {
    if (same.length > 1) {
      const files = same.map((s) => s.file).join(" and ");
      problems.push(`segment ${index}/${shards[0].count} overlaps: it is in ${files} (merge each once)`);
    }
  }
  if (shards.length > 1) checkRuns(shards, problems);
}

/** Every shard ran the same runs with the same configuration (per-shard fields aside). */
function checkRuns(shards: Shard[], problems: string[]): void {
  const [first, ...rest] = shards;
  const configs = new Map(first.results.runs.map((r) => [r.name, r]));
  for (const s of rest) {
    const names = new Set(s.results.runs.map((r) => r.name));
    for (const name of configs.keys()) {
      if (!names.has(name)) problems.push(`run "${name}" is in ${first.file} but not in ${s.file}`);
    }
    for (const run of s.results.runs) {
      const other = configs.get(run.name);
      if (other === undefined) {
        problems.push(`run "${run.name}" is in ${s.file} but not in ${first.file}`);
        continue;
      }
      const differs = differingFields(other, run);
      if (differs.length) {
        problems.push(
          `shards of different loads: run "${run.name}" differs in ${differs.join(", ")} ` +
            `between ${first.file} and ${s.file}`,
        );
      }
    }
  }
}

function differingFields(a: RunResult, b: RunResult): string[] {
  const keys = new Set([...Object.keys(a.config), ...Object.keys(b.config)]);
  const fields = [...keys].filter((k) =>
    !PER_SHARD_CONFIG.has(k) && JSON.stringify(a.config[k]) !== JSON.stringify(b.config[k])
  );
  if (a.model !== b.model) fields.unshift("model");
  return fields;
}

/** Merges the shards of one segment set; throws `MergeError` naming every problem. */
export function mergeShardFiles(files: ShardFile[], opts: { allowPartial?: boolean } = {}): ResultsFile {
  const problems: string[] = [];
  if (files.length === 0) problems.push("no shard files given");
  const shards = identify(files, problems);
  if (shards.length) checkSet(shards, problems);
  const count = shards[0]?.count ?? 0;
  const present = new Set(shards.map((s) => s.index));
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !present.has(i));
  if (missing.length && !opts.allowPartial && problems.length === 0) {
    problems.push(
      `missing segment${missing.length > 1 ? "s" : ""} ${missing.map((i) => `${i}/${count}`).join(", ")} ` +
        `(have ${[...present].sort((a, b) => a - b).map((i) => `${i}/${count}`).join(", ")}); ` +
        "give their files, or pass --allow-partial to merge the others (marked partial)",
    );
  }
  if (problems.length) throw new MergeError(problems);
  shards.sort((a, b) => a.index - b.index);
  const groups = shards[0].results.runs.map((run) =>
    shards.map((s) => s.results.runs.find((r) => r.name === run.name)!)
  );
  const runs = groups.map(mergeShardRuns);
  const unaligned = groups.some((group) => alignShards(group).unaligned);
  return {
    ...shards[0].results,
    createdAt: new Date().toISOString(),
    runs,
    thresholds: evaluatePending(shards, runs),
    complete: shards.every((s) => s.results.complete !== false) && missing.length === 0,
    shards: { ...summaryOf(shards, count, missing), ...(unaligned ? { unaligned } : {}) },
  };
}

function evaluatePending(shards: Shard[], runs: RunResult[]): ThresholdResult[] {
  const seen = new Set<string>();
  const out: ThresholdResult[] = [];
  for (const g of shards.flatMap((s) => s.results.thresholds)) {
    const key = `${g.expression}\u0000${g.run}`;
    const run = runs.find((r) => r.name === g.run);
    if (seen.has(key) || run === undefined) continue;
    seen.add(key);
    for (const result of evaluateThresholds([parseThreshold(g.expression)], [run])) {
      out.push({ ...result, ...(g.scope ? { scope: g.scope } : {}) });
    }
  }
  return out;
}

function summaryOf(shards: Shard[], count: number, missing: number[]): ShardsSummary {
  const hosts = [...new Set(shards.map((s) => s.results.environment.hostname ?? "?"))];
  return {
    count,
    hosts,
    missing,
    partial: missing.length > 0,
    shards: shards.map((s) => ({
      index: s.index,
      file: s.file,
      ...(s.results.environment.hostname ? { hostname: s.results.environment.hostname } : {}),
      startAt: s.results.runs[0].segment!.startAt,
      lateMs: Math.max(0, ...s.results.runs.map((r) => r.segment?.lateMs ?? 0)),
      environment: s.results.environment,
    })),
  };
}
