/**
 * @module
 * The totals of flows, one shape on both sides of the worker boundary: per flow its sessions and their
 * durations, per request step its responses, errors and latencies. Workers hand theirs over once as
 * `FlowSample`s (histograms encoded); the main side adds them with `addFlowCounters`.
 */
import { addEncoded, createHistogram, encodeHistogram, type Histogram } from "../../results/histogram.ts";

/** One flow's totals, with live histograms. */
export interface FlowCounters {
  name: string;
  sessions: number;
  completed: number;
  failed: number;
  /** Sessions ended by a capture that found nothing (also counted in `failed`). */
  captureFailed: number;
  /** Sessions that found no data row left (not started, not in `sessions`). */
  noData: number;
  /** Durations (us) of completed sessions. */
  sessionHistogram: Histogram;
  steps: Array<{
    label: string;
    requests: number;
    errors: number;
    histogram: Histogram;
    /** Per check of the step (by index): responses it passed and failed. */
    checkNames: string[];
    checkPassed: Uint32Array;
    checkFailed: Uint32Array;
  }>;
}

/** One check's totals, as results list them. */
type CheckCount = {
  name: string;
  passed: number;
  failed: number;
};

/** One flow's totals from one worker; plain structured-cloneable data. */
export interface FlowSample {
  name: string;
  sessions: number;
  completed: number;
  failed: number;
  captureFailed: number;
  noData: number;
  /** Encoded durations (us) of completed sessions; null when none completed. */
  sessionHistogram: string | null;
  steps: Array<
    { label: string; requests: number; errors: number; histogram: string | null; checks: CheckCount[] }
  >;
}

/** Zero totals of a flow with these request steps. */
export function emptyFlowCounters(
  name: string,
  labels: readonly string[],
  checkNames: ReadonlyArray<readonly string[]> = [],
): FlowCounters {
  return {
    name,
    sessions: 0,
    completed: 0,
    failed: 0,
    captureFailed: 0,
    noData: 0,
    sessionHistogram: createHistogram(),
    steps: labels.map((label, j) => {
      const names = [...(checkNames[j] ?? [])];
      return {
        label,
        requests: 0,
        errors: 0,
        histogram: createHistogram(),
        checkNames: names,
        checkPassed: new Uint32Array(names.length),
        checkFailed: new Uint32Array(names.length),
      };
    }),
  };
}

/** Adds one worker's sample of the same flow; another flow's sample is a bug of ours and throws. */
export function addFlowCounters(into: FlowCounters, from: FlowSample): void {
  if (from.name !== into.name || from.steps.length !== into.steps.length) {
    throw new Error(`flow samples of workers do not line up at flow ${from.name}`);
  }
  into.sessions += from.sessions;
  into.completed += from.completed;
  into.failed += from.failed;
  into.captureFailed += from.captureFailed;
  into.noData += from.noData;
  addIfEncoded(into.sessionHistogram, from.sessionHistogram);
  from.steps.forEach((step, j) => {
    const to = into.steps[j];
    to.requests += step.requests;
    to.errors += step.errors;
    addIfEncoded(to.histogram, step.histogram);
    step.checks.forEach((c, k) => {
      to.checkPassed[k] += c.passed;
      to.checkFailed[k] += c.failed;
    });
  });
}

/** The totals as a sample, histograms encoded (null when they recorded nothing). */
export function flowSample(f: FlowCounters): FlowSample {
  return {
    name: f.name,
    sessions: f.sessions,
    completed: f.completed,
    failed: f.failed,
    captureFailed: f.captureFailed,
    noData: f.noData,
    sessionHistogram: encodeOrNull(f.sessionHistogram),
    steps: f.steps.map((s) => ({
      label: s.label,
      requests: s.requests,
      errors: s.errors,
      histogram: encodeOrNull(s.histogram),
      checks: checkCounts(s),
    })),
  };
}

function addIfEncoded(into: Histogram, encoded: string | null): void {
  if (encoded !== null) addEncoded(into, encoded);
}

function encodeOrNull(h: Histogram): string | null {
  return h.totalCount === 0 ? null : encodeHistogram(h);
}

/** A step's checks as results list them. */
export function checkCounts(s: FlowCounters["steps"][number]): CheckCount[] {
  return s.checkNames.map((name, k) => ({ name, passed: s.checkPassed[k], failed: s.checkFailed[k] }));
}
