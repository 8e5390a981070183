/**
 * @module
 * When a closed run's crowd of connections was open, so its first intervals read as a crowd still
 * opening, not the server's answer to the whole crowd: the end of the first interval whose open gauge
 * holds `OPEN_SHARE` of the plan, said only when that took longer than one interval, for plans of
 * `MIN_PLANNED` connections or more, unsteered, with connections kept. Pure.
 */
import type { RunResult } from "../schema/results.ts";
import { MIN_PLANNED } from "./ramp_followed.ts";
import { formatCount } from "../text_format.ts";
import { modelFactsOf } from "../load_models.ts";

/** The share of the planned connections open from which the crowd counts as open. */
const OPEN_SHARE = 0.99;

interface CrowdOpening {
  /** Connections planned (this segment's share of them). */
  planned: number;
  /** When the crowd was open (ms after the warm-up, the end of that interval); null: never. */
  openAtMs: number | null;
  /** The most connections open at an interval's end before then (all of the run when never open). */
  mostOpen: number;
  /** Responses answered while the crowd was opening (0: nothing was sent before it was open). */
  answeredBefore: number;
}

/** How the run's crowd opened; null when it opened within the first interval or is not judged. */
export function crowdOpening(run: RunResult): CrowdOpening | null {
  const config = run.config as Record<string, unknown>;
  if (!modelFactsOf(run.model)?.closedConnections || (run.steering?.length ?? 0) > 0) return null;
  if (config.connection === "per-arrival" || typeof config.connections !== "number") return null;
  const planned = Math.floor(config.connections / (run.segment?.count ?? 1));
  if (planned < MIN_PLANNED || run.intervals.length === 0) return null;
  let mostOpen = 0, answeredBefore = 0;
  for (const [i, iv] of run.intervals.entries()) {
    if (iv.connections >= OPEN_SHARE * planned) {
      if (i === 0) return null;
      return { planned, openAtMs: iv.startMs + iv.durationMs, mostOpen, answeredBefore };
    }
    mostOpen = Math.max(mostOpen, iv.connections);
    answeredBefore += iv.requests;
  }
  return { planned, openAtMs: null, mostOpen, answeredBefore };
}

/** In words, what qualifies the first intervals: when the crowd was open, or that it never was. */
export function crowdOpeningText(o: CrowdOpening): string {
  if (o.openAtMs === null) {
    return `never all open: at most ${formatCount(o.mostOpen)} of ${formatCount(o.planned)} connections, ` +
      "the run measured that smaller crowd";
  }
  const open = `${formatCount(o.planned)} connections open at ${
    (o.openAtMs / 1000).toFixed(2)
  } s: the intervals before`;
  return o.answeredBefore > 0
    ? `${open} ran a crowd still opening (${formatCount(o.mostOpen)} at most), each connection sending ` +
      "from its connect on"
    : `${open} are its connects, nothing sent until the whole crowd was open`;
}
