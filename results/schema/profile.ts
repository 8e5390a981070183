/**
 * @module
 * The CPU profile of a target process over one run, as `results.json` holds it (`profiles` of a run): the
 * relative path of the full `.cpuprofile` beside results.json, and a bounded summary that the report
 * draws (results/cpu_profile.ts makes it): the functions (frames), a pruned call tree, the top functions
 * by self and total time, and self time per function in the load's first second and after it. Times are
 * whole microseconds of sampled CPU time. Pure.
 */
import { z } from "zod";

/**
 * One function of the profile: its name, its script shortened (`npm:express/lib/router/index.js`,
 * `app/endpoints.ts`) and its 1-based line.
 */
export const profileFrameSchema = z.looseObject({
  name: z.string(),
  url: z.string(),
  line: z.number(),
});

/** A function's self and total time; `frame` indexes `frames`. */
export const profileFunctionSchema = z.looseObject({
  frame: z.number().int().min(0),
  selfUs: z.number(),
  totalUs: z.number(),
});

/**
 * Self time per function within a window of the profile, from `fromUs` to `toUs` after its start: the load's
 * first second (from when the load started, which may be after the profile's start) and the rest.
 */
export const profileWindowSchema = z.looseObject({
  label: z.string(),
  fromUs: z.number(),
  toUs: z.number(),
  /** Sampled time in the window that was not idle. */
  busyUs: z.number(),
  /** [frame, selfUs], largest first, bounded. */
  self: z.array(z.tuple([z.number().int().min(0), z.number()])),
});

/** The bounded summary of one profile. */
export const profileSummarySchema = z.looseObject({
  /** From the first to the last sample. */
  durationUs: z.number(),
  samples: z.number().int().min(0),
  /** Mean time between samples (the profiler's interval, or longer on a busy machine). */
  intervalUs: z.number(),
  /** Sampled time the process was idle (waiting for I/O or timers): `(idle)`. */
  idleUs: z.number(),
  frames: z.array(profileFrameSchema),
  /**
   * The call tree in pre-order, nodes under `minShare` of the whole dropped (their time stays in their
   * parent's total): [frame, parent index or -1, totalUs, selfUs].
   */
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
  /**
   * Why no profile was taken (the inspector did not answer or belonged to another process, the process died).
   */
  error: z.string().optional(),
  /** What qualifies a profile taken: "profile mostly idle (...)" when over 95% of it was idle. */
  warning: z.string().optional(),
});

export type ProfileFrame = z.infer<typeof profileFrameSchema>;
export type ProfileFunction = z.infer<typeof profileFunctionSchema>;
export type ProfileWindow = z.infer<typeof profileWindowSchema>;
export type ProfileSummary = z.infer<typeof profileSummarySchema>;
export type RunProfile = z.infer<typeof runProfileSchema>;
