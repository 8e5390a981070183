/**
 * @module
 * What a run hands its script's isolates (k6's flags, Locust's selection, the `-e` variables): gathered in
 * loadlab's isolate while the run's source is read, and given to each isolate as it starts (a script host's
 * `workerData`, a load worker's "prepare"), never through the process's environment, which every run of
 * the process and every child it starts would share.
 */
import { workerData } from "node:worker_threads";

/** Each part as its runtime reads it: k6/isolate_flags.ts, locust/runtime.ts (which import this). */
export interface IsolateInputs {
  k6?: object;
  locust?: object;
  /** `-e NAME=VALUE`: over the process's environment for the script (`s.env`, k6's `__ENV`). */
  vars?: Record<string, string>;
}

let passed: IsolateInputs = {};

/** Starts a run's inputs with its `-e` variables: nothing of a run before it in this isolate stays. */
export function startRunInputs(vars: Record<string, string>): void {
  passed = { vars };
}

/** Adds `inputs` (k6's flags merged into those given before) to what the run's isolates receive. */
export function passInputs(inputs: IsolateInputs): void {
  passed = { ...passed, ...inputs, k6: { ...passed.k6, ...inputs.k6 } };
}

/** What the run's isolates receive, as they start. */
export const passedInputs = (): IsolateInputs => passed;

/** This isolate's: a script host's at its start, a load worker's at "prepare"; in loadlab's isolate, none. */
export const received: IsolateInputs & { k6: object } = {
  ...workerData?.inputs,
  k6: { ...workerData?.inputs?.k6 },
};

/** Takes a load worker's inputs before its script is imported (the k6 modules keep `received.k6`). */
export function receiveInputs(inputs: IsolateInputs): void {
  Object.assign(received.k6, inputs.k6);
  received.locust = inputs.locust;
  received.vars = inputs.vars;
}

/** The script's environment: the process's, the `-e` variables over it (an isolate's, else the run's). */
export function scriptEnv(): Record<string, string> {
  return { ...Deno.env.toObject(), ...(received.vars ?? passed.vars) };
}
