/**
 * @module
 * The main-isolate side of flow statistics: every worker's `FlowSample[]` goes through
 * `FlowAggregator.add`, so 1 or N workers share one merge path; counts are summed and the encoded
 * histograms decoded and added, then summarised once in `finish`. Workers run the same config, so
 * flows and steps line up by index; a mismatch is a bug of ours and throws.
 */
import type { FlowResult } from "../../results/mod.ts";
import { createHistogram, decodeHistogram, type Histogram, summarizeMs } from "../../results/histogram.ts";
import type { FlowSample } from "./flow_recorder.ts";

interface StepTotals {
  label: string;
  requests: number;
  errors: number;
  histogram: Histogram;
}

interface FlowTotals {
  name: string;
  sessions: number;
  completed: number;
  failed: number;
  sessionHistogram: Histogram;
  steps: StepTotals[];
}

/** Merges the flow samples of any number of workers. */
export class FlowAggregator {
  #flows: FlowTotals[] | null = null;

  /** Adds one worker's flow totals. */
  add(samples: readonly FlowSample[]): void {
    const flows = this.#flows ??= samples.map((f) => ({
      name: f.name,
      sessions: 0,
      completed: 0,
      failed: 0,
      sessionHistogram: createHistogram(),
      steps: f.steps.map((s) => ({ label: s.label, requests: 0, errors: 0, histogram: createHistogram() })),
    }));
    if (samples.length !== flows.length) throw new Error("flow samples of workers do not line up");
    samples.forEach((sample, k) => {
      const into = flows[k];
      if (sample.name !== into.name || sample.steps.length !== into.steps.length) {
        throw new Error(`flow samples of workers do not line up at flow ${sample.name}`);
      }
      into.sessions += sample.sessions;
      into.completed += sample.completed;
      into.failed += sample.failed;
      addEncoded(into.sessionHistogram, sample.sessionHistogram);
      sample.steps.forEach((step, j) => {
        into.steps[j].requests += step.requests;
        into.steps[j].errors += step.errors;
        addEncoded(into.steps[j].histogram, step.histogram);
      });
    });
  }

  /** Per-flow results; undefined when no worker ran flows. */
  finish(): FlowResult[] | undefined {
    return this.#flows?.map((f) => ({
      name: f.name,
      sessions: f.sessions,
      completed: f.completed,
      failed: f.failed,
      sessionMs: summaryOrNull(f.sessionHistogram),
      steps: f.steps.map((s) => ({
        label: s.label,
        requests: s.requests,
        errors: s.errors,
        latencyMs: summaryOrNull(s.histogram),
      })),
    }));
  }
}

function addEncoded(into: Histogram, encoded: string | null): void {
  if (encoded !== null) into.add(decodeHistogram(encoded));
}

function summaryOrNull(h: Histogram): FlowResult["sessionMs"] {
  return h.totalCount === 0 ? null : summarizeMs(h);
}
