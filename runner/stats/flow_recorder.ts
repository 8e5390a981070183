/**
 * @module
 * The worker-side counters of flows: totals over the run, not per interval (intervals already count every
 * request), encoded only at `take()`. Flows and steps are addressed by index, so recording is an increment
 * and one `recordValue`.
 */
import { clampUs } from "../../results/histogram.ts";
import { emptyFlowCounters, type FlowCounters, type FlowSample, flowSample } from "./flow_counters.ts";

/** Records sessions and steps of every flow of one worker. */
export class FlowRecorder {
  readonly #flows: FlowCounters[];

  constructor(
    flows: ReadonlyArray<
      { name: string; labels: readonly string[]; checkNames?: ReadonlyArray<readonly string[]> }
    >,
  ) {
    this.#flows = flows.map((f) => emptyFlowCounters(f.name, f.labels, f.checkNames));
  }

  sessionStarted(flow: number): void {
    this.#flows[flow].sessions++;
  }

  /** Every request step got a response (any status); `durationUs` from arrival to the last response. */
  sessionCompleted(flow: number, durationUs: number): void {
    const f = this.#flows[flow];
    f.completed++;
    f.sessionHistogram.recordValue(clampUs(durationUs));
  }

  /** A step's request failed (no response): the session ends there. */
  sessionFailed(flow: number): void {
    this.#flows[flow].failed++;
  }

  stepResponse(flow: number, step: number, latencyUs: number): void {
    const s = this.#flows[flow].steps[step];
    s.requests++;
    s.histogram.recordValue(clampUs(latencyUs));
  }

  stepError(flow: number, step: number): void {
    this.#flows[flow].steps[step].errors++;
  }

  /** A capture found nothing: the session ends there (failed). */
  captureFailed(flow: number): void {
    const f = this.#flows[flow];
    f.captureFailed++;
    f.failed++;
  }

  /** An arrival found no data row left: no session ran. */
  noData(flow: number): void {
    this.#flows[flow].noData++;
  }

  /** The pass and fail counters of a step's checks (by check index), for `runExtract`. */
  checks(flow: number, step: number): { passed: Uint32Array; failed: Uint32Array } {
    const s = this.#flows[flow].steps[step];
    return { passed: s.checkPassed, failed: s.checkFailed };
  }

  /** The totals so far as samples (histograms encoded); call once, at the end of the worker's share. */
  take(): FlowSample[] {
    return this.#flows.map(flowSample);
  }
}
