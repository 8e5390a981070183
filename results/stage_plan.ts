/**
 * @module
 * The plan of a ramping-connections load (`stages`): how many connections the whole load holds at an
 * instant. One function for both sides: the model follows it (runner/load/models/ramping_connections.ts)
 * and the verdict judges the run against it (results/conclude/ramp_followed.ts). Pure.
 */

/** One stage: linear from the previous target to `target` connections over `durationMs`. */
export interface StagePlan {
  durationMs: number;
  target: number;
}

/**
 * The whole load's connections at `tMs` from the start of the stages: linear from the previous stage's
 * target (0 before the first) to this one's, rounded toward the previous target (as k6's ramping-vus: a
 * connection starts as the line reaches its number and stops as it reaches the one below); the last
 * target after the end.
 *
 * @example connectionsAt([{ durationMs: 1000, target: 10 }], 550) // 5
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
