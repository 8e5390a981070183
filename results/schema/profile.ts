/**
 * @module
 * A run's CPU profile in `results.json`: the `.cpuprofile`'s path and a bounded summary (µs). Pure.
 */
import { z } from "zod";

/** One function: name, shortened script (`npm:express/lib/router/index.js`), 1-based line. */
const profileFrameSchema = z.looseObject({ name: z.string(), url: z.string(), line: z.number() });

/** A function's self and total time; `frame` indexes `frames`. */
const profileFunctionSchema = z.looseObject({
  frame: z.number().int().min(0),
  selfUs: z.number(),
  totalUs: z.number(),
});

/** Self time per function from `fromUs` to `toUs`: the load's first second, then the rest. */
const profileWindowSchema = z.looseObject({
  label: z.string(),
  fromUs: z.number(),
  toUs: z.number(),
  /** Sampled time in the window that was not idle. */
  busyUs: z.number(),
  /** [frame, selfUs], largest first, bounded. */
  self: z.array(z.tuple([z.number().int().min(0), z.number()])),
});

const profileSummarySchema = z.looseObject({
  /** From the first to the last sample. */
  durationUs: z.number(),
  samples: z.number().int().min(0),
  /** Mean time between samples (the profiler's interval, or longer on a busy machine). */
  intervalUs: z.number(),
  /** Sampled time the process was idle (waiting for I/O or timers): `(idle)`. */
  idleUs: z.number(),
  frames: z.array(profileFrameSchema),
  /** The call tree in pre-order, small nodes dropped: [frame, parent index or -1, totalUs, selfUs]. */
  tree: z.array(z.tuple([z.number().int().min(0), z.number().int(), z.number(), z.number()])),
  /** The smallest share (0..1) of the whole time a tree node kept has. */
  minShare: z.number(),
  /** The top functions by self time, then by total time, without `(idle)` and `(root)`. */
  top: z.array(profileFunctionSchema),
  windows: z.array(profileWindowSchema).default([]),
});

/** A profile of one process of the target over a run: the file and its summary, or why there is none. */
export const runProfileSchema = z.looseObject({
  /** The process ("target", "target#2", "balancer", "proxy"). */
  process: z.string(),
  /** Path of the `.cpuprofile`, relative to results.json; absent when no profile was taken. */
  file: z.string().optional(),
  summary: profileSummarySchema.optional(),
  /** Why no profile was taken (the inspector did not answer or was another process's, the process died). */
  error: z.string().optional(),
  /** What qualifies a profile taken: "profile mostly idle (...)" when over 95% of it was idle. */
  warning: z.string().optional(),
});

export type ProfileFrame = z.infer<typeof profileFrameSchema>;
export type ProfileFunction = z.infer<typeof profileFunctionSchema>;
export type ProfileWindow = z.infer<typeof profileWindowSchema>;
export type ProfileSummary = z.infer<typeof profileSummarySchema>;
export type RunProfile = z.infer<typeof runProfileSchema>;
