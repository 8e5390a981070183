/**
 * @module
 * How many connections a ramping-connections load holds at an instant, for the model and the verdict.
 */

/** One stage: linear from the previous target to `target` connections over `durationMs`. */
export interface StagePlan {
  durationMs: number;
  target: number;
}

/**
 * The load's connections at `tMs`: linear from the previous stage's target to this one's, rounded toward
 * the previous target (k6's ramping-vus: a connection stops as the line reaches the number below it).
 */
export function connectionsAt(stages: readonly StagePlan[], tMs: number): number {
  let from = 0, startMs = 0;
  for (const s of stages) {
    if (tMs < startMs + s.durationMs) {
      const v = from + ((s.target - from) * Math.max(0, tMs - startMs)) / s.durationMs;
      return s.target >= from ? Math.floor(v) : Math.ceil(v);
    }
    from = s.target;
    startMs += s.durationMs;
  }
  return from;
}
