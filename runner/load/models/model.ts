/**
 * @module
 * The record every load model fills in, in its own file under runner/load/models/: its config fields
 * and their checks, how it paces (open or closed), what it pre-connects, whether it keeps the
 * uncorrected latency beside the corrected one, the rate it asks for, its generator warm-up burst,
 * whether flows apply, and its run. runner/config.ts builds the config union from the fields, the
 * worker runs `run`, and the CLI, planning and pre-connect read the rest from the one table (mod.ts).
 * A model file imports no config module: its config type is its own fields plus `CommonConfig`.
 */
import type { z } from "zod";
import type { LoadModel } from "../../../results/mod.ts";
import type { CommonConfig, LoadContext } from "../executor.ts";

/** What a model adds to the common fields, parsed (defaults filled). */
type OwnConfig<F extends z.ZodRawShape> = z.output<z.ZodObject<F>>;
/** A model's whole config as its rules and run see it. */
export type ModelConfig<M extends LoadModel, F extends z.ZodRawShape> =
  & { readonly model: M }
  & OwnConfig<F>
  & CommonConfig;

/** A problem found by a model's own check: the config path and what to do. */
export interface ModelIssue {
  path: Array<string | number>;
  message: string;
}

/** How a model paces its sends (see `LoadModelDef.pacing`). */
export type Pacing = "closed" | "open" | "fixed";

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
  /**
   * `closed`: each connection sends again when answered (no schedule); `open`: sends follow a schedule
   * on connections opened on demand (up to `maxConnections`); `fixed`: sends follow a schedule over a
   * fixed set of connections (wrk2). Reads inputs as well as parsed configs.
   */
  pacing(c: Partial<OwnConfig<F>>): Pacing;
  /**
   * wrk2's correction over fixed connections: latency counts from the intended send, and the latency
   * from the actual send is kept beside it (`uncorrected`). Open models measure from the intended
   * send too, but keep nothing uncorrected; closed ones have no intended time but the actual.
   */
  readonly keepsUncorrected: boolean;
  /** Problems across fields of a parsed config (each field's own range is its schema's): all, changing nothing. */
  check(c: ModelConfig<M, F>): ModelIssue[];
  /** Connections one worker opens before t0 (keep-alive runs; per-arrival runs open none). */
  poolSize(c: ModelConfig<M, F>, worker: WorkerShare): PoolSize;
  /** Arrivals per second asked for, averaged over the measured part; null when closed. */
  targetArrivalsPerSec(c: ModelConfig<M, F>): number | null;
  /** The measured duration the run aims for (Infinity when only a count bounds it). */
  measuredDurationMs(c: ModelConfig<M, F>): number;
  /**
   * A count's bound past its start (k6's `maxDuration`): the load stops there, count reached or not, so a
   * session that never ends cannot hold it for ever. Absent: the measured duration is the bound.
   */
  maxDurationMs?(c: ModelConfig<M, F>): number;
  /** The model's own fields for the generator's warm-up burst against its in-process sink. */
  warmupFields(c: ModelConfig<M, F>, burst: WarmupBurst): Partial<OwnConfig<F>>;
  /**
   * Why flows (sessions) cannot drive this model, as the error says it; absent when they can. The
   * experiment file's flows apply only to models they can drive.
   */
  readonly noFlows?: string;
  /** Starts this worker's share of the load; resolves when all its requests have ended. */
  run(ctx: LoadContext<ModelConfig<M, F>>): Promise<void>;
}

/** A model's record, its config type inferred from its fields (so `run` and the rules see them typed). */
export function defineModel<M extends LoadModel, F extends z.ZodRawShape>(
  def: LoadModelDef<M, F>,
): LoadModelDef<M, F> {
  return def;
}
