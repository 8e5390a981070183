/**
 * @module
 * Whether a ramping-connections run held the connections its stages planned (an interval under half the plan
 * is short), and when a closed run's crowd was open, so its first intervals read as opening. Pure.
 */
import type { RunResult } from "../schema/results.ts";
import { formatCount } from "../text_format.ts";
import { connectionsAt, modelFactsOf, type StagePlan } from "../load_models.ts";

/** An interval holding under this share of its planned connections is short of the plan. */
const SHORT_SHARE = 0.5;
/** Fewest short intervals that flag a run: one slow interval on a busy machine is not a ramp missed. */
const MIN_SHORT_INTERVALS = 2;
/** Plans below this many connections are not judged: a handful of connects in flight is half of them. */
const MIN_PLANNED = 20;

/** The run's shortfall against its stages: its worst interval, how many fell short or silent; or null. */
export function rampShortfall(run: RunResult) {
  if (modelFactsOf(run.model)?.durationIn !== "stages" || (run.steering?.length ?? 0) > 0) return null;
  const stages = stagesOf(run.config);
  if (stages === null) return null;
  const share = run.segment ? 1 / run.segment.count : 1;
  let worst: { atSec: number; open: number; planned: number } | null = null, short = 0, silent = 0;
  for (const iv of run.intervals.slice(0, -1)) {
    const planned = Math.floor(connectionsAt(stages, iv.startMs) * share);
    if (planned < MIN_PLANNED || iv.connections >= SHORT_SHARE * planned) continue;
    short++;
    if (iv.requests === 0) silent++;
    if (worst === null || iv.connections / planned < worst.open / worst.planned) {
      worst = { atSec: iv.startMs / 1000, open: iv.connections, planned };
    }
  }
  if (worst === null || short < MIN_SHORT_INTERVALS) return null;
  return { ...worst, shortIntervals: short, silentIntervals: silent };
}

/** When the worst interval started: "0.75s", "1s". */
export function atText(s: { atSec: number }): string {
  return `${Number(s.atSec.toFixed(2))}s`;
}

/** The stages of the run's configuration as `results.json` keeps it; null when it holds none. */
function stagesOf(config: Record<string, unknown>): StagePlan[] | null {
  const stages = config.stages;
  if (!Array.isArray(stages) || stages.length === 0) return null;
  const valid = stages.every((s) =>
    typeof s === "object" && s !== null && typeof s.durationMs === "number" && typeof s.target === "number"
  );
  return valid ? stages as StagePlan[] : null;
}

/** The share of the planned connections open from which the crowd counts as open. */
const OPEN_SHARE = 0.99;

type CrowdOpening = NonNullable<ReturnType<typeof crowdOpening>>;

/**
 * How the run's crowd opened: connections planned, when open (ms after the warm-up; null: never), the most
 * open before then and the responses answered meanwhile; null if open in the first interval or not judged.
 */
export function crowdOpening(run: RunResult) {
  const config = run.config as Record<string, unknown>;
  if (!modelFactsOf(run.model)?.closedConnections || (run.steering?.length ?? 0) > 0) return null;
  if (config.connection === "per-arrival" || typeof config.connections !== "number") return null;
  const planned = Math.floor(config.connections / (run.segment?.count ?? 1));
  if (planned < MIN_PLANNED) return null;
  let mostOpen = 0, answeredBefore = 0;
  for (const [i, iv] of run.intervals.entries()) {
    if (iv.connections >= OPEN_SHARE * planned) {
      if (i === 0) return null;
      return { planned, openAtMs: iv.startMs + iv.durationMs, mostOpen, answeredBefore };
    }
    mostOpen = Math.max(mostOpen, iv.connections);
    answeredBefore += iv.requests;
  }
  const opened = run.connects - run.reconnects; // a first open is a connect, not a reconnect
  // A run too short or too starved to close an interval still says whether its crowd ever opened.
  if (run.intervals.length === 0) {
    if (opened >= OPEN_SHARE * planned) return null;
    mostOpen = opened;
  }
  return { planned, openAtMs: null, mostOpen, answeredBefore, neverOpened: planned - opened };
}

/** In words, what qualifies the first intervals: when the crowd was open, or that it never was. */
export function crowdOpeningText(o: CrowdOpening): string {
  if (o.openAtMs === null) {
    const never = o.neverOpened! > 0 ? ` (${formatCount(o.neverOpened!)} never opened)` : "";
    return `never all open: at most ${formatCount(o.mostOpen)} of ${formatCount(o.planned)} connections, ` +
      `the run measured that smaller crowd${never}`;
  }
  const atSec = (o.openAtMs / 1000).toFixed(2);
  const open = `${formatCount(o.planned)} connections open at ${atSec} s: the intervals before`;
  return o.answeredBefore > 0
    ? `${open} ran a crowd still opening (${formatCount(o.mostOpen)} at most), each connection sending ` +
      "from its connect on"
    : `${open} are its connects, nothing sent until the whole crowd was open`;
}
