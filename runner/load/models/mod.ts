/**
 * @module
 * The table of load models by `LoadModel`: everything reads a model's rules here, not its name.
 */
import type { LoadModel } from "../../../results/mod.ts";
import { shareOf } from "../schedule.ts";
import type { LoadModelDef, ModelConfig, PoolSize } from "./model.ts";
import { connectionsModel } from "./connections.ts";
import { rateModel, throughputModel } from "./paced.ts";
import { countModel } from "./count.ts";
import { rampingConnectionsModel } from "./ramping_connections.ts";
import { LOAD_MODEL_FACTS, type Pacing } from "../../../results/load_models.ts";
import { summedMs } from "./fields.ts";

export const LOAD_MODEL_DEFS = {
  connections: connectionsModel,
  rate: rateModel,
  throughput: throughputModel,
  count: countModel,
  "ramping-connections": rampingConnectionsModel,
} satisfies { [M in LoadModel]: LoadModelDef<M> };

/** A record seen through its name only: its rules take its model's config, which `model` guarantees. */
export type AnyModelDef = LoadModelDef<any>;

export function modelDef(model: LoadModel): AnyModelDef {
  const def: AnyModelDef = LOAD_MODEL_DEFS[model];
  return def;
}

/** Whether a run keeps latency from the actual send too: its model's way, or the run asks (ghz's -O). */
export function keepsUncorrected(config: { model: LoadModel; keepSentLatency?: boolean }): boolean {
  return LOAD_MODEL_FACTS[config.model].keepsUncorrected || config.keepSentLatency === true;
}

type AnyConfig = ModelConfig<any>;

/** How a config's model paces its sends. Takes inputs too (only the model's own fields are read). */
export function pacingOf(c: { readonly model: LoadModel; readonly ratePerSec?: unknown }): Pacing {
  return LOAD_MODEL_FACTS[c.model].pacing(c.ratePerSec !== undefined);
}

/** The fields a model's duration is read from (phases, stages or `durationMs`: its facts say which). */
type DurationFields = { model: LoadModel; durationMs?: number; phases?: Parts; stages?: Parts };
type Parts = ReadonlyArray<{ readonly durationMs: number }>;

/** The measured duration the run aims for: where its model's facts say, or none (Infinity) for `count`. */
export function measuredDurationMs(c: DurationFields): number {
  const parts = LOAD_MODEL_FACTS[c.model].durationIn;
  return parts === "durationMs" ? c.durationMs ?? Infinity : summedMs(c[parts] ?? []);
}

/** Where the load stops at the latest, past its measured start: its duration, or a count's max duration. */
export function loadBoundMs(c: DurationFields): number {
  return Math.min(measuredDurationMs(c), modelDef(c.model).maxDurationMs?.(c as AnyConfig) ?? Infinity);
}

/** The pre-connect pool of worker `index` of `count` (a per-arrival run opens none: see pre_connect.ts). */
export function poolSizeOf(c: AnyConfig, index: number, count: number): PoolSize {
  if (c.connection === "per-arrival") return null;
  return modelDef(c.model).poolSize?.(c, { index, count, share: (n) => shareOf(n, index, count) }) ?? null;
}
