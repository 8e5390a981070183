/**
 * @module
 * The messages between the main isolate and the load workers, as discriminated unions so both sides
 * switch on `type` with the compiler checking every case. Samples carry their interval index, so the
 * main side merges them whatever order they arrive in. A run is "prepare" (each worker warms up and
 * opens its pool, then answers "prepared") and then "start" at one common instant. From "prepare" on,
 * each worker marks a shared heartbeat while its event loop turns.
 */
import type { AttackConfig } from "../config.ts";
import type { IntervalSample } from "../stats/sample.ts";
import type { LoadRunSummary, PrepareSummary } from "../load/load_run_types.ts";
import type { FlowSample } from "../stats/flow_counters.ts";
import type { SteerChange } from "../../results/schema/steering.ts";

/** How often a worker marks its heartbeat (ms). */
export const HEARTBEAT_MS = 100;
/**
 * The heartbeat's float64s: [0] the time, [1] the script sessions in progress, [2] the answers the worker
 * counted and [3] those of them with a failed status, both as it records them, so a worker ended as stuck
 * still gives what it counted since its last sample (its event loop never sent it).
 */
export const HEARTBEAT_SLOTS = 4;

export type MainToWorker =
  | {
    type: "prepare";
    config: AttackConfig;
    workerIndex: number;
    workerCount: number;
    /** The WebSocket warm-up's echo, started once for all workers (load/ws_warmup_sink.ts). */
    warmupSinkUrl?: string;
    /**
     * `HEARTBEAT_SLOTS` float64s: the worker sets the first two every `HEARTBEAT_MS` while its event loop
     * turns: the time (ms since the epoch), by which the main side tells a worker stuck in code that never
     * yields from a slow one, and the script sessions it has in progress, which are cut with it when it is
     * ended so; its recorder counts the answers into the other two.
     */
    heartbeat: SharedArrayBuffer;
    /** The counters every worker of the run shares (runner/script/run_counters.ts). */
    counters: SharedArrayBuffer;
  }
  | {
    type: "start";
    /**
     * Common start time as `performance.timeOrigin + performance.now()` (each isolate has its own origin).
     */
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
  /**
   * Its totals, and the secrets it came to know (a script's secret headers and cookies, results/redact.ts
   * `knownSecrets`), so what the main side writes or shows redacts them too.
   */
  | { type: "done"; workerIndex: number; summary: LoadRunSummary; secrets: [string, string][] }
  | { type: "failed"; workerIndex: number; message: string }
  /**
   * The isolate is ending on its own (`Deno.exit`, `process.exit` in a session script): its last word,
   * sent from its `unload` event, so the main side names it at once instead of waiting it out as stuck.
   */
  | { type: "exited"; workerIndex: number };
