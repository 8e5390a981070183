/**
 * @module
 * Lines up several workers' flow samples before they are added by index: a script's steps and checks are
 * in each worker's first-seen order, so every worker gets the union, with zeros where it had none.
 */
import type { FlowSample } from "./flow_counters.ts";

/** `workers` (each worker's samples, flows by index) with the steps and checks of each flow lined up. */
export function alignFlowSamples(workers: readonly FlowSample[][]): FlowSample[][] {
  if (workers.length < 2) return [...workers];
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
