/**
 * @module
 * k6's `k6/execution` for converted scripts: `exec.vu`, `exec.scenario` (its name, the iteration's number
 * in the run, its executor), `exec.instance.iterationsCompleted`, `exec.test.options` (k6's as the run
 * applies them), `exec.test.abort()` and `exec.test.fail()` (test_abort.ts). Run-wide numbers are counters
 * every worker shares (runtime.ts `countIterations`). A field loadlab does not know throws when read rather
 * than answering wrongly (the conversion refuses those it can see: convert/refusals.ts).
 */
import {
  activeVus,
  countIterations,
  current,
  iterationsEnded,
  plannedVus,
  scenario,
  scenarioStartMs,
} from "./runtime.ts";
import { abortTest, failTest } from "./test_abort.ts";
import { isolateFlags } from "./isolate_flags.ts";
import { VuTags } from "./tags.ts";

countIterations();

function iteration() {
  const ctx = current();
  if (ctx === undefined) {
    throw new Error("k6/execution's vu is read outside an iteration (in init, setup or teardown)");
  }
  return ctx;
}

function unknown(field: string): never {
  throw new Error(`exec.${field} is not known to loadlab's sessions`);
}

/** An object of `getters`' fields, each read when asked (as k6's, enumerable). */
function fields(getters: Record<string, () => unknown>): Record<string, unknown> {
  const out = {};
  for (const [name, get] of Object.entries(getters)) {
    Object.defineProperty(out, name, { get, enumerable: true });
  }
  return out;
}

/** The VU's own tags: set in an iteration, on its later samples (every iteration's after it too). */
const vuTags = () => (iteration().vu.tags ??= new VuTags()).own;

export const vu = fields({
  idInTest: () => iteration().vu.id,
  idInInstance: () => iteration().vu.id,
  iterationInInstance: () => iteration().iter,
  iterationInScenario: () => iteration().iter,
  tags: vuTags,
  metrics: () => ({ tags: vuTags() }),
});

const scenarioInfo = fields({
  name: scenario,
  executor: () => isolateFlags.options?.scenarios?.[scenario()]?.executor ?? unknown("scenario.executor"),
  iterationInInstance: () => iteration().inTest,
  iterationInTest: () => iteration().inTest,
  // When this worker's first iteration of the scenario started (workers start within ms of each other).
  startTime: () => scenarioStartMs() || unknown("scenario.startTime (outside an iteration)"),
  progress: () => unknown("scenario.progress"),
});

export const instance = fields({
  iterationsCompleted: iterationsEnded,
  vusInitialized: () => plannedVus() ?? unknown("instance.vusInitialized (scenarios apart, or adding VUs)"),
  // Since loadlab read the script's options: k6's count, plus the workers' start-up.
  currentTestRunDuration: () =>
    Date.now() - (isolateFlags.testStartMs ?? unknown("instance.currentTestRunDuration")),
  vusActive: activeVus,
  iterationsInterrupted: () => unknown("instance.iterationsInterrupted"),
});

export const test = {
  abort(message?: unknown): never {
    return abortTest(message);
  },
  fail(message?: unknown): void {
    failTest(message);
  },
  get options() {
    return isolateFlags.options ?? unknown("test.options");
  },
};

export { scenarioInfo as scenario };
export default { vu, scenario: scenarioInfo, instance, test };
