/**
 * @module
 * Which sweep points a knee may be judged on: one rule for the knee of every sweep (analysis.ts, its
 * explanation in knee_explained.ts) and the bend of a broadcast sweep (broadcast_points.ts), so no finding
 * calls a bend the target's where loadlab's own numbers made it. A point is not judged when one of its
 * runs carries a flag of the run verdict (run_verdict.ts) that says its numbers are not the target's alone:
 *
 * - never the target's: `generator-bound` (loadlab's generator was the limit), `incomplete` and
 *   `aborted` (stopped early), `warm-up not reached`, `nothing measured`, `data ran out` and `steered`
 *   (the load was not the one planned);
 * - the target's only when the runner found the server was the limit (`server-bound`): `dropped`,
 *   `lost`, `unanswered`, `errors` and `failed`. Without that finding, sends that were never made or
 *   never answered may be the generator's (a busy machine, its sockets) as much as the target's.
 *
 * Server errors, statuses that were no success and sessions that ended early are answers the target gave:
 * they never keep a point from being judged. Pure.
 */
import type { RunResult } from "../mod.ts";
import { runVerdict, type VerdictKind } from "./run_verdict.ts";

const NEVER_THE_TARGETS: ReadonlySet<VerdictKind> = new Set<VerdictKind>([
  "generator-bound",
  "incomplete",
  "aborted",
  "warm-up not reached",
  "nothing measured",
  "data ran out",
  "steered",
]);

const TARGETS_WHEN_SERVER_BOUND: ReadonlySet<VerdictKind> = new Set<VerdictKind>([
  "dropped",
  "lost",
  "unanswered",
  "errors",
  "failed",
]);

/** The flag labels that keep these runs (one sweep point) from being judged; empty when it is judged. */
export function notJudgedFlags(runs: RunResult[]): string[] {
  const labels = runs.flatMap((run) =>
    runVerdict(run).flags.filter((f) =>
      NEVER_THE_TARGETS.has(f.kind) || (TARGETS_WHEN_SERVER_BOUND.has(f.kind) && !run.serverBound)
    ).map((f) => f.label)
  );
  return [...new Set(labels)];
}

/** A sweep point not judged, by its swept value, with why. */
export interface NotJudged {
  value: number;
  flags: string[];
}

/**
 * "400, 800 not judged: generator-bound", or one clause per reason when they differ ("400 not judged:
 * generator-bound; 800 not judged: dropped 5.0%"); "" when none. `count` formats a value.
 */
export function notJudgedText(points: NotJudged[], count = (x: number) => String(x)): string {
  const byWhy = new Map<string, number[]>();
  for (const p of points) {
    const why = p.flags.join(", ");
    byWhy.set(why, [...(byWhy.get(why) ?? []), p.value]);
  }
  return [...byWhy].map(([why, values]) => `${values.map(count).join(", ")} not judged: ${why}`).join("; ");
}
