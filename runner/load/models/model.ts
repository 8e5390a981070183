/**
 * @module
 * The record every load model fills in, read via one table (mod.ts); its fields are its `MODEL_FIELDS` row
 * (runner/config_fields.ts), types only here: a load worker runs the models without the schema library.
 */
import type { z } from "zod";
import type { PathIssue } from "../../../validation/mod.ts";
import type { LoadModel } from "../../../results/mod.ts";
import type { CommonConfig, LoadContext } from "../executor.ts";
import type { MODEL_FIELDS } from "../../config_fields.ts";

/** What a model adds to the common fields, parsed (defaults filled). */
type OwnConfig<M extends LoadModel> = z.output<z.ZodObject<(typeof MODEL_FIELDS)[M]>>;
export type ModelConfig<M extends LoadModel> = { readonly model: M } & OwnConfig<M> & CommonConfig;

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
export interface LoadModelDef<M extends LoadModel> {
  readonly model: M;
  /** Problems across fields of a parsed config (a field's range is its schema's): all, changing nothing. */
  check(c: ModelConfig<M>): PathIssue[];
  /** Connections one worker opens before t0 (keep-alive runs; per-arrival runs open none); absent: none. */
  poolSize?(c: ModelConfig<M>, worker: WorkerShare): PoolSize;
  /** Arrivals per second asked for, averaged over the measured part; null or absent when closed. */
  targetArrivalsPerSec?(c: ModelConfig<M>): number | null;
  /** A count's bound past its start (k6's `maxDuration`), so a session that never ends cannot hold it. */
  maxDurationMs?(c: ModelConfig<M>): number;
  /** The model's own fields for the generator's warm-up burst against its in-process sink. */
  warmupFields(c: ModelConfig<M>, burst: WarmupBurst): Partial<OwnConfig<M>>;
  /** Starts this worker's share of the load; resolves when all its requests have ended. */
  run(ctx: LoadContext<ModelConfig<M>>): Promise<void>;
}

/** A model's record, its config type its fields' (so `run` and the rules see them typed). */
export function defineModel<M extends LoadModel>(def: LoadModelDef<M>): LoadModelDef<M> {
  return def;
}
