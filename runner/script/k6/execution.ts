/**
 * @module
 * k6's `k6/execution` for converted scripts; run-wide numbers are counters every worker shares. A field
 * loadlab does not know throws when read rather than answering wrongly.
 */
import {
  activeVus,
  countIterations,
  current,
  iterationsCut,
  iterationsEnded,
  plannedVus,
  scenario,
  scenarioStartMs,
} from "./runtime.ts";
import { abortTest, failTest } from "./test_abort.ts";
import { isolateFlags } from "./isolate_flags.ts";
import { VuTags } from "./tags.ts";
import { durationMs } from "./http.ts";

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

/** An object of `getters`' fields, each read when asked (as k6's, enumerable), after `guard`. */
function fields(getters: Record<string, () => unknown>, guard = () => {}): Record<string, unknown> {
  const out = {};
  for (const [name, get] of Object.entries(getters)) {
    Object.defineProperty(out, name, { get: () => (guard(), get()), enumerable: true });
  }
  return out;
}

/** The VU's own tags and metadata: set in an iteration, on its later samples (every iteration's after it). */
const ownOf = () => iteration().vu.tags ??= new VuTags(), vuTags = () => ownOf().own;

/** The hook this isolate runs now (the hooks' isolate, its init code done), or "" in a VU's. */
let hook = "";
export const enterHooks = (phase = "setup"): void => void (hook = phase);

/** A number of the iteration's VU; 0 in setup() and teardown(), which k6's VU 0 runs at its iteration 0. */
const ofVu = (read: (ctx: ReturnType<typeof iteration>) => number) => () => hook ? 0 : read(iteration());

export const vu = fields({
  idInTest: ofVu((ctx) => ctx.vu.id),
  idInInstance: ofVu((ctx) => ctx.vu.id),
  iterationInInstance: ofVu((ctx) => ctx.iter),
  iterationInScenario: ofVu((ctx) => ctx.iter),
  tags: vuTags,
  metrics: () => ({ tags: vuTags(), metadata: ownOf().metadata }),
});

/** k6's scenario progress, 0 to 1: iterations ended over their total, else time since start over duration. */
function progress(): number {
  const scenarios = isolateFlags.options?.scenarios ?? {};
  const sc: Record<string, unknown> = scenarios[scenario()] ?? unknown("scenario.progress (options unknown)");
  const spentMs = Date.now() - (scenarioStartMs() || unknown("scenario.progress (outside an iteration)"));
  const ms = (value: unknown) => durationMs((value ?? 0) as string | number);
  const perVu = sc.executor === "per-vu-iterations";
  if (perVu || sc.executor === "shared-iterations") {
    // The run's count is the scenario's only when it runs alone.
    if (Object.keys(scenarios).length > 1) unknown("scenario.progress (beside another scenario)");
    const total = Number(sc.iterations ?? 1) * (perVu ? Number(sc.vus ?? 1) : 1);
    return perVu && spentMs > ms(sc.maxDuration ?? "10m") ? 1 : iterationsEnded() / total;
  }
  const stages = (sc.stages ?? []) as Array<{ duration?: unknown }>;
  const totalMs = ms(sc.duration) || stages.reduce((t, s) => t + ms(s.duration), 0);
  return totalMs > 0 ? Math.min(1, spentMs / totalMs) : unknown(`scenario.progress (of ${sc.executor})`);
}

const scenarioInfo = fields({
  name: scenario,
  executor: () => isolateFlags.options?.scenarios?.[scenario()]?.executor ?? unknown("scenario.executor"),
  iterationInInstance: () => iteration().inTest,
  iterationInTest: () => iteration().inTest,
  // When this worker's first iteration of the scenario started (workers start within ms of each other).
  startTime: () => scenarioStartMs() || unknown("scenario.startTime (outside an iteration)"),
  progress,
});

/** As k6's: teardown() runs with no execution state, so the instance's fields throw there. */
function noStateInTeardown(): void {
  if (hook === "teardown") {
    throw new Error("getting instance information in the init context is not supported");
  }
}

export const instance = fields({
  iterationsCompleted: iterationsEnded,
  vusInitialized: () => plannedVus(true) ?? unknown("instance.vusInitialized (scenarios started apart)"),
  // Since loadlab read the script's options: k6's count, plus the workers' start-up.
  currentTestRunDuration: () =>
    Date.now() - (isolateFlags.testStartMs ?? unknown("instance.currentTestRunDuration")),
  vusActive: activeVus,
  iterationsInterrupted: iterationsCut,
}, noStateInTeardown);

export const test = {
  abort: abortTest,
  fail: failTest,
  get options() {
    return isolateFlags.options ?? unknown("test.options");
  },
};

export { scenarioInfo as scenario };
// As k6's: in teardown() reading `exec.instance` itself throws, before any check sees it.
export default {
  vu,
  scenario: scenarioInfo,
  get instance() {
    noStateInTeardown();
    return instance;
  },
  test,
};
