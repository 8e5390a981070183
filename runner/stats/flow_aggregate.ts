/**
 * @module
 * The main-isolate side of flow statistics: every worker's samples go through `FlowAggregator.add`, one
 * merge path for 1 or N workers, summarised once in `finish`.
 */
import type { FlowResult } from "../../results/mod.ts";
import { encodeHistogram, type Histogram, summarizeMs } from "../../results/histogram.ts";
import {
  addFlowCounters,
  checkCounts,
  emptyFlowCounters,
  type FlowCounters,
  type FlowSample,
} from "./flow_counters.ts";

/** Merges the flow samples of any number of workers. */
export class FlowAggregator {
  #flows: FlowCounters[] | null = null;

  add(samples: readonly FlowSample[]): void {
    const flows = this.#flows ??= samples.map((f) =>
      emptyFlowCounters(f.name, f.steps.map((s) => s.label), f.steps.map((s) => s.checks.map((c) => c.name)))
    );
    if (samples.length !== flows.length) throw new Error("flow samples of workers do not line up");
    samples.forEach((sample, k) => addFlowCounters(flows[k], sample));
  }

  /** Per-flow results; undefined when no worker ran flows. */
  finish(): FlowResult[] | undefined {
    return this.#flows?.map((f) => ({
      name: f.name,
      sessions: f.sessions,
      completed: f.completed,
      failed: f.failed,
      ...(f.captureFailed > 0 ? { captureFailed: f.captureFailed } : {}),
      ...(f.noData > 0 ? { noData: f.noData } : {}),
      sessionMs: summaryOrNull(f.sessionHistogram),
      ...(f.sessionHistogram.totalCount > 0
        ? { sessionHistogramEncoded: encodeHistogram(f.sessionHistogram) }
        : {}),
      steps: f.steps.map((s) => ({
        label: s.label,
        requests: s.requests,
        errors: s.errors,
        latencyMs: summaryOrNull(s.histogram),
        ...(s.checkNames.length > 0 ? { checks: checkCounts(s) } : {}),
      })),
    }));
  }
}

function summaryOrNull(h: Histogram): FlowResult["sessionMs"] {
  return h.totalCount === 0 ? null : summarizeMs(h);
}
