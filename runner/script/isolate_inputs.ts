/**
 * @module
 * What a run hands its script's isolates (k6's flags, Locust's selection, the `-e` variables): gathered here
 * as the run's source is read, given to each isolate as it starts (a script host's `workerData`, a load
 * worker's "prepare"); never in the process's environment, which every run and child of it shares.
 */
import { workerData } from "node:worker_threads";

/** k6's and Locust's parts as their runtimes read them; `env`: the script's, `-e` over the process's. */
export type IsolateInputs = { k6: Record<string, unknown>; locust?: object; env: Record<string, string> };

/** The run's in loadlab's isolate, else the isolate's own (the k6 modules hold `inputs.k6` as they load). */
export const inputs: IsolateInputs = { k6: {}, env: Deno.env.toObject() };

/** Adds `more` to the inputs, k6's flags merged; `fresh`: they start with it (a run's, or an isolate's). */
export function passInputs(more: Partial<IsolateInputs>, fresh = false): void {
  if (fresh) Object.keys(inputs.k6).forEach((key) => delete inputs.k6[key]);
  Object.assign(inputs, fresh && { locust: undefined }, more, {
    k6: Object.assign(inputs.k6, more.k6),
  });
}
passInputs(workerData?.inputs ?? {});
