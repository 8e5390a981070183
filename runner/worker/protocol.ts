/**
 * @module
 * Main isolate <-> load worker messages: "prepare" (answered "prepared"), then "start" at one instant.
 */
import type { IntervalSample } from "../stats/sample.ts";
import type { LoadRunOptions, LoadRunSummary, PrepareSummary } from "../load/load_run_types.ts";
import type { FlowSample } from "../stats/flow_counters.ts";
import type { SteerChange } from "../../results/schema/steering.ts";
import type { inputs } from "../script/isolate_inputs.ts";

export const HEARTBEAT_MS = 100;
/** Heartbeat float64s: time, sessions in progress, answers, failed answers (what a cut worker counted). */
export const HEARTBEAT_SLOTS = 4;

export type MainToWorker =
  | {
    type: "prepare";
    /** The load but its callbacks; the heartbeat's first two float64s are set every `HEARTBEAT_MS`. */
    load: Omit<LoadRunOptions, "onSamples" | "onFlows"> & { heartbeat: SharedArrayBuffer };
    /** The counters every worker of the run shares (runner/script/run_state.ts). */
    counters: SharedArrayBuffer;
    inputs: typeof inputs;
  }
  | {
    type: "start";
    /** Common start time as `performance.timeOrigin + performance.now()` (isolates' origins differ). */
    startAtEpochMs: number;
  }
  /** A change to the running load (pause, rate, ...), effective at its `atSec` on the run's time axis. */
  | { type: "steer"; change: SteerChange }
  | { type: "stop" };

export type WorkerToMain =
  | { type: "ready" }
  | { type: "prepared"; workerIndex: number; summary: PrepareSummary }
  | { type: "samples"; workerIndex: number; samples: IntervalSample[] }
  /** A worker's flow totals (histograms HDR-encoded), once, before its "done"; only when there are flows. */
  | { type: "flows"; workerIndex: number; flows: FlowSample[] }
  /** Its totals, secrets it came to know (the main side redacts them too), resources its run left open. */
  | { type: "done"; workerIndex: number; summary: LoadRunSummary; secrets: [string, string][]; open: number }
  | { type: "failed"; workerIndex: number; message: string }
  /** The isolate is ending on its own (`Deno.exit` in a script): its last word, so it is not stuck. */
  | { type: "exited"; workerIndex: number };
