/**
 * @module
 * The totals of flows on both sides of the worker boundary: per flow its sessions and their durations, per
 * request step its responses, errors, latencies and checks. A worker's `FlowRecorder` counts them over the
 * run (intervals already count every request), addressed by index so recording is an increment and one
 * `recordValue`, and hands them over once as `FlowSample`s; `flowResults` lines up and adds every worker's.
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

type CheckCount = {
  name: string;
  passed: number;
  failed: number;
};

/** One flow's totals from one worker; plain structured-cloneable data, histograms encoded (null: empty). */
export interface FlowSample {
  name: string;
  sessions: number;
  completed: number;
  failed: number;
  captureFailed: number;
  noData: number;
  sessionHistogram: string | null;
  steps: Array<
    { label: string; requests: number; errors: number; histogram: string | null; checks: CheckCount[] }
  >;
}

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

function encodeOrNull(h: Histogram): string | null {
  return h.totalCount === 0 ? null : encodeHistogram(h);
}

/** Every worker's samples added into per-flow results (undefined: no flows); a misaligned sample throws. */
export function flowResults(workers: readonly FlowSample[][]): FlowResult[] | undefined {
  let flows: FlowCounters[] | null = null;
  for (const samples of alignFlowSamples(workers)) {
    flows ??= samples.map((f) =>
      emptyFlowCounters(f.name, f.steps.map((s) => s.label), f.steps.map((s) => s.checks.map((c) => c.name)))
    );
    if (samples.length !== flows.length) throw new Error("flow samples of workers do not line up");
    samples.forEach((sample, k) => addFlowCounters(flows![k], sample));
  }
  return flows?.map((f) => ({
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

function addFlowCounters(into: FlowCounters, from: FlowSample): void {
  if (from.name !== into.name || from.steps.length !== into.steps.length) {
    throw new Error(`flow samples of workers do not line up at flow ${from.name}`);
  }
  into.sessions += from.sessions;
  into.completed += from.completed;
  into.failed += from.failed;
  into.captureFailed += from.captureFailed;
  into.noData += from.noData;
  if (from.sessionHistogram !== null) addEncoded(into.sessionHistogram, from.sessionHistogram);
  from.steps.forEach((step, j) => {
    const to = into.steps[j];
    to.requests += step.requests;
    to.errors += step.errors;
    if (step.histogram !== null) addEncoded(to.histogram, step.histogram);
    step.checks.forEach((c, k) => {
      to.checkPassed[k] += c.passed;
      to.checkFailed[k] += c.failed;
    });
  });
}

function checkCounts(s: FlowCounters["steps"][number]): CheckCount[] {
  return s.checkNames.map((name, k) => ({ name, passed: s.checkPassed[k], failed: s.checkFailed[k] }));
}

function summaryOrNull(h: Histogram): FlowResult["sessionMs"] {
  return h.totalCount === 0 ? null : summarizeMs(h);
}

/** A script's workers see steps and checks each in its own order: each gets the union, zeros for the rest. */
function alignFlowSamples(workers: readonly FlowSample[][]): readonly FlowSample[][] {
  if (workers.length < 2) return workers;
  const flowCount = Math.max(...workers.map((w) => w.length));
  const shapes = Array.from({ length: flowCount }, (_, f) => shapeOf(workers.map((w) => w[f])));
  return workers.map((samples) => samples.map((sample, f) => reshape(sample, shapes[f])));
}

/** A flow's step labels and, per label, its check names: the union over `samples`. */
function shapeOf(samples: ReadonlyArray<FlowSample | undefined>): Map<string, string[]> {
  const shape = new Map<string, string[]>();
  for (const sample of samples) {
    for (const step of sample?.steps ?? []) {
      const checks = shape.get(step.label) ?? [];
      for (const c of step.checks) if (!checks.includes(c.name)) checks.push(c.name);
      shape.set(step.label, checks);
    }
  }
  return shape;
}

function reshape(sample: FlowSample, shape: Map<string, string[]>): FlowSample {
  const byLabel = new Map(sample.steps.map((s) => [s.label, s]));
  const steps = [...shape].map(([label, names]) => {
    const step = byLabel.get(label);
    const checks = names.map((name) =>
      step?.checks.find((c) => c.name === name) ?? { name, passed: 0, failed: 0 }
    );
    return {
      label,
      requests: step?.requests ?? 0,
      errors: step?.errors ?? 0,
      histogram: step?.histogram ?? null,
      checks,
    };
  });
  return { ...sample, steps };
}
