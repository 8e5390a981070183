/**
 * @module
 * The parts of a worker's load that both the run (run_load.ts, run_prepared.ts) and the generator's warm-up
 * burst (generator_warmup.ts) build: the interval recorder, the connect gate, the model's context, and
 * whether the model is closed. They are built here one way for both so that V8 optimizes the burst's hot path
 * for the object shapes the run then brings. A recorder made with other options (a raw histogram the run has
 * not, no WebSocket counts, an origin given at construction where the run sets it later), a gate bound of
 * another number kind, or a context with its fields in another order left the burst's optimized code to
 * deoptimize at the run's first messages and compile again after t0, on the generator's core.
 */
import type { AttackConfig } from "../config.ts";
import { endpointTable } from "../endpoint_table.ts";
import { ConnectGate, CONNECTS_IN_FLIGHT_PER_WORKER } from "../http/transport/connect_gate.ts";
import { IntervalRecorder } from "../stats/recorder.ts";
import type { LoadContext } from "./executor.ts";
import { type AnyModelDef, pacingOf } from "./models/mod.ts";

/**
 * The run's recorder, counting nothing until its origin is set (`setOrigin`): the run sets it at t0, the
 * burst at its start, so both write the field after construction and share its shape.
 */
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

/**
 * Connects in flight at once: bounded for the open models, free for the closed ones (see connect_gate.ts).
 */
export function connectGateOf(config: AttackConfig): ConnectGate {
  return new ConnectGate(isClosedModel(config) ? Infinity : CONNECTS_IN_FLIGHT_PER_WORKER);
}

/** Connections that send again as soon as they are answered (no schedule, no pacer). */
export function isClosedModel(config: AttackConfig): boolean {
  return pacingOf(config) === "closed";
}
