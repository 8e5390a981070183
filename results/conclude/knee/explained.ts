/**
 * @module
 * "The knee, explained": the target telemetry of the last point below each knee beside the first above, the
 * resources that changed most, one sentence on what saturated. Points without telemetry are skipped. Pure.
 */
import type { ResultsFile, RunResult } from "../../mod.ts";
import { formatRounded as one, formatSignificant } from "../../text_format.ts";
import { digestRun, meanDigest, type TelemetryDigest } from "../telemetry_digest.ts";
import { broadcastCurves, MEMBERS_PARAMETER } from "../broadcast_points.ts";
import { notJudgedFlags } from "../judged.ts";
import { SATURATED_PCT } from "../generator_saturation.ts";

/** One knee explained: its curve's title ("direct / steady"), its two sides, what saturated, the sentence. */
type KneeExplanation = NonNullable<ReturnType<typeof explainKnee>>;

/** One side of a knee: a sweep value, its runs and their telemetry. */
export type KneeSide = KneeExplanation["below"];

/** A figure of the digest (a number, null where not sampled). */
type Measure = { [K in keyof TelemetryDigest]: TelemetryDigest[K] extends number | null ? K : never }[
  keyof TelemetryDigest
];

/** How each measure is compared and told; `floor` keeps small values from making huge ratios. */
const MEASURES: Array<
  { key: Measure; floor: number; tell: (a: number, b: number, d: TelemetryDigest) => string }
> = [
  {
    key: "cpuPct",
    floor: 5,
    tell: (a, b, d) =>
      `the ${d.cpuProcess ?? "target"} process's CPU went from ${one(a)}% to ${one(b)}% of a core`,
  },
  {
    key: "runQueueWaitPct",
    floor: 5,
    tell: (a, b, d) =>
      `the ${d.cpuProcess ?? "target"} process's main thread waited for a core ${one(a)}% → ${
        one(b)
      }% of the time`,
  },
  { key: "loopP99Ms", floor: 1, tell: (a, b) => `event-loop p99 went ${one(a)} → ${one(b)} ms` },
  { key: "gcMsPerSec", floor: 5, tell: (a, b) => `GC pauses went ${one(a)} → ${one(b)} ms per second` },
  {
    key: "redisCpuPct",
    floor: 5,
    tell: (a, b) => `Redis's CPU went from ${one(a)}% to ${one(b)}% of a core`,
  },
  { key: "poolQueuedPct", floor: 1, tell: (a, b) => `the pool queued ${one(a)}% → ${one(b)}% of queries` },
  {
    key: "lateSendsPct",
    floor: 1,
    tell: (a, b) => `the generator sent ${one(a)}% → ${one(b)}% of its requests late`,
  },
  {
    key: "generatorDemandPct",
    floor: 5,
    tell: (a, b) => `the load worker ran or waited for a core ${one(a)}% → ${one(b)}% of the time`,
  },
];

function changes(below: TelemetryDigest, above: TelemetryDigest): string[] {
  const moved: Array<{ ratio: number; text: string }> = [];
  for (const m of MEASURES) {
    const a = below[m.key], b = above[m.key];
    if (a === null || b === null) continue;
    const ratio = Math.max(b, m.floor) / Math.max(a, m.floor);
    const factor = ratio >= 1 ? ratio : 1 / ratio;
    if (factor >= 1.2) moved.push({ ratio: factor, text: m.tell(a, b, above) });
  }
  return moved.sort((x, y) => y.ratio - x.ratio).map((m) => m.text);
}

/** A profile's top function at this share of its process's busy time or more is a hot spot worth naming. */
const PROFILE_HOT_SHARE_PCT = 20;
/** A main thread in the run queue this share of the time or more was starved of a core. */
const RUN_QUEUE_STARVED_PCT = 20;
/** The target's CPU at this % of a core or more is full. */
const CPU_FULL_PCT = 85;

/** The target used or waited for a core this share of the time or more: its CPU is a cause. */
const CPU_DEMAND_PCT = 50;

/** "the profile's top function, sort (app.js:12), took 64% of the target process's busy CPU time". */
function hotSpot(below: TelemetryDigest, above: TelemetryDigest): string | null {
  const top = above.profileTop;
  if (!top || top.sharePct < PROFILE_HOT_SHARE_PCT) return null;
  // A main thread whose wait for a core rose past the bar with the load wanted more CPU than a busy
  // machine gave it: what it ran is evidence all the same (a steady wait is the machine's, not demand).
  const wait = above.runQueueWaitPct ?? 0;
  const starvedByLoad = wait >= RUN_QUEUE_STARVED_PCT &&
    wait >= 1.5 * Math.max(below.runQueueWaitPct ?? 0, 1);
  if (above.cpuPct !== null && above.cpuPct + wait < CPU_DEMAND_PCT && !starvedByLoad) return null;
  const where = top.where ? ` (${top.where})` : "";
  const share = one(top.sharePct);
  return `the profile's top function, ${top.name}${where}, took ${share}% of the ${top.process} ` +
    "process's busy CPU time";
}

/** What saturated above the knee, as [resource, words], citing the strongest evidence first. */
function verdict(below: TelemetryDigest, above: TelemetryDigest): [string, string] {
  const rose = (k: Measure, factor: number) =>
    above[k] !== null && (below[k] === null || above[k]! >= factor * Math.max(below[k]!, 1));
  const waited = (above.runQueueWaitPct ?? 0) >= RUN_QUEUE_STARVED_PCT;
  const cpuFull = (above.cpuPct ?? 0) >= CPU_FULL_PCT;
  const hot = hotSpot(below, above);
  if (hot) {
    // The profile names what ran; a wait for a core is said beside it, never blamed on other processes.
    const state = cpuFull
      ? "CPU-bound"
      : waited
      ? `CPU-starved (its main thread waited for a core ${one(above.runQueueWaitPct!)}% of the time)`
      : "CPU-heavy";
    return ["CPU (profiled)", `${state}: ${hot}`];
  }
  if (cpuFull) return ["CPU", "CPU-bound"];
  if ((above.redisCpuPct ?? 0) >= 85) return ["Redis", "Redis-bound (its single thread is full)"];
  if ((above.gcMsPerSec ?? 0) >= 100 && rose("gcMsPerSec", 1.5)) return ["GC", "GC-bound"];
  if ((above.poolQueuedPct ?? 0) >= 50 && rose("poolQueuedPct", 1.5)) {
    return ["pool", "bound by the pool: requests queue for a connection"];
  }
  if (waited) {
    const since = rose("runQueueWaitPct", 1.5)
      ? ""
      : ` (${one(below.runQueueWaitPct ?? 0)}% below the knee already)`;
    const share = one(above.runQueueWaitPct!);
    return [
      "CPU (shared)",
      `CPU-starved: the target's main thread waited for a core ${share}% of the time${since}`,
    ];
  }
  if ((above.loopP99Ms ?? 0) >= 20 && rose("loopP99Ms", 3)) {
    return [
      "event loop",
      "the event loop is blocked while the CPU is not full (synchronous work, or CPU shared)",
    ];
  }
  return generatorVerdict(below, above) ?? [
    "none seen",
    "nothing loadlab samples saturated: look beyond the target (a downstream service, the network)",
  ];
}

const hasTelemetry = (d: TelemetryDigest) =>
  [d.cpuPct, d.loopP99Ms, d.gcMsPerSec, d.redisCpuPct, d.poolQueuedPct, d.profileTop].some((v) => v !== null);

/** The explanation of one knee from the runs of its two sides; null when neither has telemetry. */
export function explainKnee(
  title: string,
  parameter: string,
  below: { x: number; runs: RunResult[] },
  above: { x: number; runs: RunResult[] },
) {
  const side = (s: { x: number; runs: RunResult[] }) => ({
    x: s.x,
    runs: s.runs.map((r) => r.name),
    digest: meanDigest(s.runs.map(digestRun)),
  });
  const lo = side(below), hi = side(above);
  if (!hasTelemetry(lo.digest) && !hasTelemetry(hi.digest)) return null;
  const [resource, words] = verdict(lo.digest, hi.digest);
  const moved = changes(lo.digest, hi.digest).slice(0, 2);
  const what = moved.length ? moved.join(" while ") : "nothing loadlab samples changed by a fifth or more";
  const value = (x: number) => formatSignificant(x, 4);
  const sentence = `Above the knee of ${title} (${parameter} ${value(lo.x)} → ${value(hi.x)}) ` +
    `${what}: ${words}.`;
  return { title, parameter, below: lo, above: hi, resource, sentence };
}

/** The sides of every stored sweep knee: the knee and the next judged point above it. */
export function kneeSides(results: ResultsFile) {
  const rooms = new Set(broadcastCurves(results.runs).map((c) => `${c.variant}\u0000${c.load}`));
  return (results.analysis?.knees ?? [])
    .filter((k) =>
      k.value !== null && !(k.parameter === MEMBERS_PARAMETER && rooms.has(`${k.variant}\u0000${k.load}`))
    )
    .map((k) => sidesOf(k, results.runs))
    .filter((s) => s !== null);
}

/** Every stored knee (`kneeSides`) and capacity search with a point on each side, explained. */
export function explainKnees(results: ResultsFile): KneeExplanation[] {
  const knees = kneeSides(results).map((k) => explainKnee(k.title, k.parameter, k.below, k.above));
  const searches = (results.analysis?.searches ?? []).map((s) => explainSearch(s, results.runs));
  return [...knees, ...searches].filter((e): e is KneeExplanation => e !== null);
}

type StoredKnee = NonNullable<ResultsFile["analysis"]>["knees"][number];
type StoredSearch = NonNullable<ResultsFile["analysis"]>["searches"][number];

function sidesOf(knee: StoredKnee, runs: RunResult[]) {
  const curve = runs.filter((r) =>
    !r.probe && r.sweep?.parameter === knee.parameter && (r.variant ?? null) === knee.variant &&
    (r.load ?? null) === knee.load && !r.sweep2
  );
  const at = (x: number) => curve.filter((r) => r.sweep!.value === x);
  // A stored knee may sit on a point not judged (judged.ts): only judged points are explained.
  const values = curve.map((r) => r.sweep!.value).filter((x): x is number =>
    typeof x === "number" && notJudgedFlags(at(x)).length === 0
  );
  const next = Math.min(...values.filter((x) => x > knee.value!));
  if (!Number.isFinite(next) || !values.includes(knee.value!)) return null;
  const title = [knee.variant, knee.load].filter((p) => p !== null).join(" / ") || "the sweep";
  return {
    title,
    parameter: knee.parameter,
    below: { x: knee.value!, runs: at(knee.value!) },
    above: { x: next, runs: at(next) },
  };
}

/** A capacity search's last passing probe beside its first failing one; null when either is not judged. */
function explainSearch(search: StoredSearch, runs: RunResult[]): KneeExplanation | null {
  if (search.value === null || !search.high) return null;
  const byName = (name: string | null | undefined) => runs.filter((r) => r.name === name);
  const pass = byName(search.probes.filter((p) => p.ok && p.value === search.value).at(-1)?.run);
  const fail = byName(search.high.run);
  if (!pass.length || !fail.length || notJudgedFlags([...pass, ...fail]).length) return null;
  return explainKnee(`the capacity search of ${search.target} / ${search.load}`, search.parameter, {
    x: search.value,
    runs: pass,
  }, { x: search.high.value, runs: fail });
}

/** The generator sending this % of its requests late or more, twice the share below the knee, fell behind. */
export const GENERATOR_LATE_PCT = 1;

/** [resource, words] of the generator's or shared machine's part in a knee; null when it had none. */
export function generatorVerdict(below: TelemetryDigest, above: TelemetryDigest): [string, string] | null {
  if (above.generatorBound) {
    return ["generator", "generator-bound: the load generator, not the target, limited it"];
  }
  const late = above.lateSendsPct ?? 0, lateBelow = below.lateSendsPct ?? 0;
  if (late >= GENERATOR_LATE_PCT && late >= 2 * lateBelow) {
    return [
      "generator",
      `the generator fell behind (${one(late)}% of its requests late, ${one(lateBelow)}% below the knee): ` +
      "its own event loop was the queue, not the target",
    ];
  }
  const demand = above.generatorDemandPct;
  if (demand !== null && demand >= SATURATED_PCT) {
    return [
      "generator",
      `the load worker never slept (it ran or waited for a core ${one(demand)}% of the time, its timers up ` +
      `to ${one(above.generatorLoopLagMs ?? 0)} ms late): the generator was the queue, not the target`,
    ];
  }
  if (!above.sameMachine) return null;
  return [
    "machine",
    "nothing loadlab samples of the target saturated, and the target shares this machine with the " +
    "generator: the knee is the generator's or the machine's (other work on its cores), not a downstream " +
    "service's",
  ];
}
