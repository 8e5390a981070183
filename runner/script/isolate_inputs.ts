/**
 * @module
 * What a run hands its script's isolates (k6's flags, Locust's selection, the `-e` variables), given to each
 * with its first request, before it imports the script (an isolate may start before they are known); never in
 * the process's environment, which every run and child of it shares.
 */
/**
 * The run's in loadlab's isolate, else the isolate's own; `vars`: `-e NAME=VALUE`, over the environment;
 * `metricSends`: the sends of k6 metrics every isolate made, one counter the main isolate's shares, so it
 * knows when all have arrived; `testFailed`: 1 once a VU called k6's `exec.test.fail()`, read by the main
 * isolate at the end with no message to wait for; `runTag`: names the run's channels (`runChannel`).
 */
export const inputs: {
  k6: Record<string, unknown>;
  locust?: object;
  vars?: Record<string, string>;
  metricSends: Int32Array;
  testFailed: Int32Array;
  runTag: string;
} = {
  k6: {},
  metricSends: new Int32Array(new SharedArrayBuffer(4)),
  testFailed: new Int32Array(new SharedArrayBuffer(4)),
  runTag: crypto.randomUUID(),
};

export const METRICS_CHANNEL = "loadlab-k6-metrics";

/** A channel among this run's isolates only: a BroadcastChannel reaches every isolate of the process. */
export const runChannel = (name: string): BroadcastChannel =>
  new BroadcastChannel(`${name}:${inputs.runTag}`);

/** Adds `more` to the inputs, k6's flags merged; `fresh`: they start with it (a run's, or an isolate's). */
export function passInputs(more: Partial<typeof inputs>, fresh = false): void {
  if (fresh) Object.keys(inputs.k6).forEach((key) => delete inputs.k6[key]);
  Object.assign(inputs.k6, more.k6);
  Object.assign(inputs, fresh && { locust: undefined }, { ...more, k6: inputs.k6 });
}

/** The script's environment: the process's as it is now, the `-e` variables over it. */
export function scriptEnv(): Record<string, string> {
  return { ...Deno.env.toObject(), ...inputs.vars };
}
