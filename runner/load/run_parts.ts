/**
 * @module
 * The parts of a worker's load that the run and the generator's warm-up both build (recorder, connect gate,
 * model context), built one way so the burst's optimized code sees the run's object shapes and is not
 * deoptimized after t0.
 */
import type { AttackConfig } from "../config.ts";
import { endpointTable } from "../endpoint_table.ts";
import { ConnectGate, CONNECTS_IN_FLIGHT_PER_WORKER } from "../http/transport/connect_gate.ts";
import { IntervalRecorder } from "../stats/recorder.ts";
import type { LoadContext } from "./executor.ts";
import { type AnyModelDef, pacingOf } from "./models/mod.ts";

/** The run's recorder, counting nothing until `setOrigin` (at t0 for the run, at its start for the burst). */
export function recorderOf(config: AttackConfig, model: AnyModelDef): IntervalRecorder {
  return new IntervalRecorder({
    intervalMs: config.intervalMs,
    originMs: Infinity,
    uncorrected: model.keepsUncorrected,
    endpoints: endpointTable(config).endpoints.length,
    // A script's requests name their endpoints as they are sent (runner/script/sessions/send.ts).
    namedEndpoints: config.script !== undefined,
  });
}

/** A model's context but its stop flag (which starts false). */
export type ContextFields = Omit<LoadContext<AttackConfig>, "stopRequested">;

/** The model's context, its fields always in this order: the run's and the burst's share one map. */
export function loadContextOf(f: ContextFields): LoadContext<AttackConfig> {
  return {
    config: f.config,
    shared: f.shared,
    workerIndex: f.workerIndex,
    workerCount: f.workerCount,
    startMs: f.startMs,
    endMs: f.endMs,
    stopRequested: false,
    newConnection: f.newConnection,
    pool: f.pool,
    streamsPerConnection: f.streamsPerConnection,
    concurrency: f.concurrency,
    arrival: f.arrival,
    steer: f.steer,
  };
}

/** Connects in flight at once: bounded for open models, free for closed ones (connect_gate.ts). */
export function connectGateOf(config: AttackConfig): ConnectGate {
  return new ConnectGate(isClosedModel(config) ? Infinity : CONNECTS_IN_FLIGHT_PER_WORKER);
}

/** Connections that send again as soon as they are answered (no schedule, no pacer). */
export function isClosedModel(config: AttackConfig): boolean {
  return pacingOf(config) === "closed";
}
