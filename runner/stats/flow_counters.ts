/**
 * @module
 * Flow totals across the worker boundary: a worker's `FlowRecorder` counts by index; `flowResults` adds.
 */
import type { FlowResult } from "../../results/mod.ts";
import {
  addEncoded,
  clampUs,
  createHistogram,
  encodeHistogram,
  type Histogram,
  summarizeMs,
} from "../../results/histogram.ts";
import { defined } from "../../validation/defined.ts";

/** One flow's totals, with live histograms. */
export type FlowCounters = ReturnType<typeof emptyFlow<StepCounters>>;
type StepCounters = ReturnType<typeof emptyStepCounters>;
type CheckCount = ReturnType<typeof checkCounts>[number];

/** One flow's totals from one worker; plain structured-cloneable data, histograms encoded (null: empty). */
export type FlowSample = ReturnType<typeof flowSample>;

/** A flow's zero counts with `steps`: a worker's counters, or the main isolate's totals. */
function emptyFlow<S>(name: string, steps: S[]) {
  return {
    name,
    sessions: 0,
    completed: 0,
    failed: 0,
    /** Sessions ended by a capture that found nothing (also counted in `failed`). */
    captureFailed: 0,
    /** Sessions that found no data row left (not started, not in `sessions`). */
    noData: 0,
    /** Durations (us) of completed sessions (and of a script's that threw). */
    sessionHistogram: createHistogram(),
    steps,
  };
}

/** A step's zero counters; room for `room` checks (at least as many as it names). */
export function emptyStepCounters(label: string, checkNames: string[], room = 0) {
  const slots = Math.max(room, checkNames.length);
  return {
    label,
    requests: 0,
    errors: 0,
    histogram: createHistogram(),
    /** Per check of the step (by index): responses it passed and failed. */
    checkNames,
    checkPassed: new Uint32Array(slots),
    checkFailed: new Uint32Array(slots),
  };
}

/** Records sessions and steps of every flow of one worker. */
export class FlowRecorder {
  protected readonly flows: FlowCounters[];

  constructor(
    flows: ReadonlyArray<
      { name: string; labels: readonly string[]; checkNames?: ReadonlyArray<readonly string[]> }
    >,
  ) {
    this.flows = flows.map((f) =>
      emptyFlow(f.name, f.labels.map((label, j) => emptyStepCounters(label, [...(f.checkNames?.[j] ?? [])])))
    );
  }

  sessionStarted(flow: number): void {
    this.flows[flow].sessions++;
  }

  /** Every request step got a response (any status); `durationUs` from arrival to the last response. */
  sessionCompleted(flow: number, durationUs: number): void {
    const f = this.flows[flow];
    f.completed++;
    f.sessionHistogram.recordValue(clampUs(durationUs));
  }

  /** A step's request failed (no response): the session ends there; a script's that threw, timed as k6's. */
  sessionFailed(flow: number, durationUs?: number): void {
    const f = this.flows[flow];
    f.failed++;
    if (durationUs !== undefined) f.sessionHistogram.recordValue(clampUs(durationUs));
  }

  stepResponse(flow: number, step: number, latencyUs: number): void {
    const s = this.flows[flow].steps[step];
    s.requests++;
    s.histogram.recordValue(clampUs(latencyUs));
  }

  stepError(flow: number, step: number): void {
    this.flows[flow].steps[step].errors++;
  }

  /** A capture found nothing: the session ends there (failed). */
  captureFailed(flow: number): void {
    const f = this.flows[flow];
    f.captureFailed++;
    f.failed++;
  }

  /** An arrival found no data row left: no session ran. */
  noData(flow: number): void {
    this.flows[flow].noData++;
  }

  /** The pass and fail counters of a step's checks (by check index), for `runExtract`. */
  checks(flow: number, step: number): { passed: Uint32Array; failed: Uint32Array } {
    const s = this.flows[flow].steps[step];
    return { passed: s.checkPassed, failed: s.checkFailed };
  }

  /** The totals so far as samples (histograms encoded); call once, at the end of the worker's share. */
  take(): FlowSample[] {
    return this.flows.map(flowSample);
  }
}

/** The totals as a sample, histograms encoded (null when they recorded nothing). */
export function flowSample(f: FlowCounters) {
  const { sessionHistogram, steps, ...counts } = f;
  return {
    ...counts,
    sessionHistogram: encodeOrNull(sessionHistogram),
    steps: steps.map((s) => ({
      label: s.label,
      requests: s.requests,
      errors: s.errors,
      histogram: encodeOrNull(s.histogram),
      checks: checkCounts(s),
    })),
  };
}

function encodeOrNull(h: Histogram): string | null {
  return h.totalCount === 0 ? null : encodeHistogram(h);
}

/** A flow's totals over workers in the main isolate: its steps and checks as they come, by place or name. */
type FlowTotals = ReturnType<typeof emptyFlow<ReturnType<typeof emptyStep>>>;

/**
 * Every worker's samples added into per-flow results (undefined: no flows); a missing flow throws. A step
 * adds into the step at its place when the labels agree, else into the first of its label, else it is new:
 * a flow's steps line up by place (a label may repeat), a script's (each worker's own order) by label.
 */
export function flowResults(workers: readonly FlowSample[][]): FlowResult[] | undefined {
  if (workers.length === 0) return undefined;
  const flows: FlowTotals[] = workers[0].map((f) =>
    emptyFlow(f.name, f.steps.map((s) => emptyStep(s.label)))
  );
  for (const samples of workers) {
    if (samples.length !== flows.length) throw new Error("flow samples of workers do not line up");
    samples.forEach((sample, k) => addFlowSample(flows[k], sample));
  }
  return flows.map((f) => ({
    name: f.name,
    sessions: f.sessions,
    completed: f.completed,
    failed: f.failed,
    ...defined({ captureFailed: f.captureFailed || undefined, noData: f.noData || undefined }),
    sessionMs: summaryOrNull(f.sessionHistogram),
    ...defined({ sessionHistogramEncoded: encodeOrNull(f.sessionHistogram) ?? undefined }),
    steps: f.steps.map((s) => ({
      label: s.label,
      requests: s.requests,
      errors: s.errors,
      latencyMs: summaryOrNull(s.histogram),
      ...(s.checks.length > 0 ? { checks: s.checks } : {}),
    })),
  }));
}

function addFlowSample(into: FlowTotals, from: FlowSample): void {
  if (from.name !== into.name) throw new Error(`flow samples of workers do not line up at flow ${from.name}`);
  for (const key of ["sessions", "completed", "failed", "captureFailed", "noData"] as const) {
    into[key] += from[key];
  }
  if (from.sessionHistogram !== null) addEncoded(into.sessionHistogram, from.sessionHistogram);
  from.steps.forEach((step, j) => {
    const to = entryOf(into.steps, j, (s) => s.label === step.label, () => emptyStep(step.label));
    to.requests += step.requests;
    to.errors += step.errors;
    if (step.histogram !== null) addEncoded(to.histogram, step.histogram);
    step.checks.forEach((c, k) => {
      const check = entryOf(
        to.checks,
        k,
        (t) => t.name === c.name,
        () => ({ name: c.name, passed: 0, failed: 0 }),
      );
      check.passed += c.passed;
      check.failed += c.failed;
    });
  });
}

function emptyStep(label: string) {
  return { label, requests: 0, errors: 0, histogram: createHistogram(), checks: [] as CheckCount[] };
}

/** The entry of `list` at `i` when it matches, else the first that does, else a new one at the end. */
function entryOf<T>(list: T[], i: number, matches: (entry: T) => boolean, make: () => T): T {
  if (i < list.length && matches(list[i])) return list[i];
  let entry = list.find(matches);
  if (entry === undefined) list.push(entry = make());
  return entry;
}

function checkCounts(s: StepCounters) {
  return s.checkNames.map((name, k) => ({ name, passed: s.checkPassed[k], failed: s.checkFailed[k] }));
}

function summaryOrNull(h: Histogram): FlowResult["sessionMs"] {
  return h.totalCount === 0 ? null : summarizeMs(h);
}
