/**
 * @module
 * The record every load model fills in (fields, checks, pacing, pre-connect, rate, warm-up burst, flows, its
 * run), read through the one table (mod.ts). A model file imports no config module.
 */
import type { z } from "zod";
import type { PathIssue } from "../../../validation/mod.ts";
import type { LoadModel } from "../../../results/mod.ts";
import type { CommonConfig, LoadContext } from "../executor.ts";

/** What a model adds to the common fields, parsed (defaults filled). */
type OwnConfig<F extends z.ZodRawShape> = z.output<z.ZodObject<F>>;
/** A model's whole config as its rules and run see it. */
export type ModelConfig<M extends LoadModel, F extends z.ZodRawShape> =
  & { readonly model: M }
  & OwnConfig<F>
  & CommonConfig;

/** How one worker sizes its pre-connect pool: a fixed count, Little's law at a rate, or nothing. */
export type PoolSize = { count: number } | { ratePerSec: number; max: number } | null;

/** One worker's place in the load: `share(n)` is its part of n (floor/ceil by index). */
export interface WorkerShare {
  readonly index: number;
  readonly count: number;
  share(n: number): number;
}

/** The generator warm-up burst's size (generator_warmup.ts): each model takes what it needs. */
interface WarmupBurst {
  readonly durationMs: number;
  readonly connections: number;
  readonly ratePerSec: number;
}

/** A load model: its rules as data and functions, and its run. */
export interface LoadModelDef<M extends LoadModel, F extends z.ZodRawShape> {
  readonly model: M;
  /** What the model adds to the common config fields (zod, defaults stated here once). */
  readonly fields: F;
  /** wrk2's correction: latency from the intended send, the one from the actual send kept beside it. */
  readonly keepsUncorrected?: true;
  /** Problems across fields of a parsed config (a field's range is its schema's): all, changing nothing. */
  check(c: ModelConfig<M, F>): PathIssue[];
  /** Connections one worker opens before t0 (keep-alive runs; per-arrival runs open none); absent: none. */
  poolSize?(c: ModelConfig<M, F>, worker: WorkerShare): PoolSize;
  /** Arrivals per second asked for, averaged over the measured part; null or absent when closed. */
  targetArrivalsPerSec?(c: ModelConfig<M, F>): number | null;
  /** The measured duration the run aims for (Infinity when only a count bounds it). */
  measuredDurationMs(c: ModelConfig<M, F>): number;
  /** A count's bound past its start (k6's `maxDuration`), so a session that never ends cannot hold it. */
  maxDurationMs?(c: ModelConfig<M, F>): number;
  /** The model's own fields for the generator's warm-up burst against its in-process sink. */
  warmupFields(c: ModelConfig<M, F>, burst: WarmupBurst): Partial<OwnConfig<F>>;
  /** Starts this worker's share of the load; resolves when all its requests have ended. */
  run(ctx: LoadContext<ModelConfig<M, F>>): Promise<void>;
}

/** A model's record, its config type inferred from its fields (so `run` and the rules see them typed). */
export function defineModel<M extends LoadModel, F extends z.ZodRawShape>(
  def: LoadModelDef<M, F>,
): LoadModelDef<M, F> {
  return def;
}
