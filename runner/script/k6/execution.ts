/**
 * @module
 * k6's `k6/execution` for converted scripts: `exec.vu`, `exec.scenario` (its name, the iteration's number
 * in the run, its executor), `exec.instance.iterationsCompleted`, `exec.test.options` (k6's as the run
 * applies them) and `exec.test.abort()` (test_abort.ts). Run-wide numbers are counters every worker shares
 * (runtime.ts `countIterations`). A field loadlab does not know (VU counts, a scenario's progress) throws
 * when read rather than answering wrongly.
 */
import { countIterations, current, iterationsEnded, scenario, scenarioStartMs } from "./runtime.ts";
import { abortTest } from "./test_abort.ts";
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

export const vu = {
  get idInTest() {
    return iteration().vu.id;
  },
  get idInInstance() {
    return iteration().vu.id;
  },
  get iterationInInstance() {
    return iteration().iter;
  },
  get iterationInScenario() {
    return iteration().iter;
  },
  /** The VU's own tags: set in an iteration, on its later samples (every iteration's after it too). */
  get tags(): Record<string, string> {
    const vu = iteration().vu;
    return (vu.tags ??= new VuTags()).own;
  },
  metrics: {
    get tags(): Record<string, string> {
      return vu.tags;
    },
  },
};

export const scenarioInfo = {
  get name() {
    return scenario();
  },
  get executor() {
    return isolateFlags.options?.scenarios?.[scenario()]?.executor ?? unknown("scenario.executor");
  },
  get iterationInInstance() {
    return iteration().inTest;
  },
  get iterationInTest() {
    return iteration().inTest;
  },
  /** When this worker's first iteration of the scenario started (workers start within ms of each other). */
  get startTime() {
    return scenarioStartMs() || unknown("scenario.startTime (outside an iteration)");
  },
};

export const instance = {
  get iterationsCompleted() {
    return iterationsEnded();
  },
  get vusInitialized() {
    return plannedVus() ?? unknown("instance.vusInitialized (scenarios that start apart or add VUs)");
  },
  /** Since loadlab read the script's options: k6's count, plus the workers' start-up. */
  get currentTestRunDuration() {
    return Date.now() - (isolateFlags.testStartMs ?? unknown("instance.currentTestRunDuration"));
  },
};

/**
 * The VUs k6 initializes before the test: each scenario's most (an arrival rate's preallocated ones),
 * summed; null when k6's count would differ (scenarios started apart, an arrival rate that may add VUs).
 */
function plannedVus(): number | null {
  let vus = 0;
  for (const sc of Object.values(isolateFlags.options?.scenarios ?? {}) as Array<Record<string, unknown>>) {
    if (sc.startTime !== undefined && sc.startTime !== "0s" && sc.startTime !== 0) return null;
    const arrival = /-arrival-rate$/.test(String(sc.executor));
    if (arrival && Number(sc.maxVUs ?? sc.preAllocatedVUs) > Number(sc.preAllocatedVUs)) return null;
    const targets = ((sc.stages ?? []) as Array<{ target?: number }>).map((s) => Number(s.target));
    const most = arrival
      ? Number(sc.preAllocatedVUs)
      : sc.executor === "ramping-vus"
      ? Math.max(Number(sc.startVUs ?? 1), ...targets)
      : Number(sc.vus ?? 1);
    if (!Number.isFinite(most)) return null;
    vus += most;
  }
  return vus === 0 ? null : vus;
}

const UNKNOWN = "scenario.progress instance.vusActive instance.iterationsInterrupted";
for (const field of UNKNOWN.split(" ")) {
  const [of, name] = field.split(".");
  const get = () => unknown(field);
  Object.defineProperty(of === "scenario" ? scenarioInfo : instance, name, { get, enumerable: true });
}

export const test = {
  abort(message?: unknown): never {
    return abortTest(message);
  },
  get options() {
    return isolateFlags.options ?? unknown("test.options");
  },
};

export { scenarioInfo as scenario };
export default { vu, scenario: scenarioInfo, instance, test };
