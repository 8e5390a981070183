/**
 * @module
 * The changes made to a running load by hand or replayed, as results.json records them. Pure.
 */
import { z } from "zod";

/** What a change does: `end-phase` ends the phase under way (the last one: the load), `stop` the load. */
export const STEER_ACTIONS = ["pause", "resume", "rate", "connections", "end-phase", "stop"] as const;
export type SteerAction = (typeof STEER_ACTIONS)[number];

/** Highest rate a change may set: one load's cap, as for any rate. */
export const MAX_STEER_RATE_PER_SEC = 10_000_000;
/** Most connections a change may set for the whole load (over all workers). */
export const MAX_STEER_CONNECTIONS = 100_000;

/** One change, as recorded and as replayed. */
export const steerChangeSchema = z.strictObject({
  /** When it took effect: seconds from the measured start (negative: during the warm-up). */
  atSec: z.number().finite(),
  action: z.enum(STEER_ACTIONS),
  /** `rate`: the arrival rate from now to the end of the phase under way (then the phases go on). */
  ratePerSec: z.number().positive().max(MAX_STEER_RATE_PER_SEC).optional(),
  /** `connections`: the closed model's connections from now on, over all workers. */
  connections: z.number().int().min(1).max(MAX_STEER_CONNECTIONS).optional(),
  /** Who made it: the dashboard, `loadlab steer`, or a replay of a recorded run. */
  by: z.enum(["dashboard", "terminal", "replay"]).optional(),
}).refine((c) => c.action !== "rate" || c.ratePerSec !== undefined, {
  message: "a rate change needs ratePerSec",
  path: ["ratePerSec"],
}).refine((c) => c.action !== "connections" || c.connections !== undefined, {
  message: "a connections change needs connections",
  path: ["connections"],
});
export type SteerChange = z.infer<typeof steerChangeSchema>;

/** A run's changes in the order they took effect. */
export const steeringSchema = z.array(steerChangeSchema);

/** A change in words, for the verdict line, the terminal and the charts: `rate 200/s`, `pause`. */
export function describeChange(change: SteerChange): string {
  if (change.action === "rate") return `rate ${change.ratePerSec}/s`;
  if (change.action === "connections") return `connections ${change.connections}`;
  return change.action;
}
